package lane

import (
	"testing"
	"time"

	"dlmp/internal/wire"
)

// Warm touches as many slots as were freed since the last Warm, those the
// next pushes take first (the lowest numbers); a take of a fresh slot leaves
// one fewer to warm. Fails if Warm walks the whole list, or forgets what
// it warmed, or if get or put miscount.
func TestSlotsWarmFresh(t *testing.T) {
	var shared Slots
	a := NewSender(SenderConfig{Shared: &shared})
	b := NewSender(SenderConfig{Shared: &shared})
	now := t0
	step := func(name string, do func(), want int) {
		t.Helper()
		do()
		now = now.Add(time.Second)
		if got := shared.Warm(); got != want {
			t.Errorf("%s: Warm touched %d slots, want %d", name, got, want)
		}
	}
	step("a's 200 freed", func() { deepen(a, 200, now) }, 200)
	step("nothing since", func() {}, 0)
	step("b takes 50 warmed, frees them", func() { deepen(b, 50, now) }, 50)
	step("a takes 120, frees them", func() { deepen(a, 120, now) }, 120)
	step("b takes 30 without freeing", func() {
		for i := range 30 {
			_ = b.Push(message(0x21, 40, uint32(i)), Critical)
		}
	}, 0)
	step("a frees 40, b takes 15 of them", func() {
		deepen(a, 40, now)
		for i := range 15 {
			_ = b.Push(message(0x21, 40, uint32(i)), Critical)
		}
	}, 25)
	if got := shared.Len(); got != 200-30-15 {
		t.Errorf("got %d shared slots, want %d", got, 200-30-15)
	}
}

// Warm touches at most MaxWarm slots, the next taken.
func TestSlotsWarmBounded(t *testing.T) {
	var shared Slots
	fill(&shared, MaxWarm+5)
	if got := shared.Warm(); got != MaxWarm {
		t.Errorf("Warm touched %d slots, want MaxWarm, %d", got, MaxWarm)
	}
	if got := shared.Warm(); got != 0 {
		t.Errorf("a second Warm touched %d slots, want 0", got)
	}
	var none *Slots
	if got := none.Warm(); got != 0 {
		t.Errorf("a nil Slots' Warm touched %d, want 0", got)
	}
}

// Warm allocates nothing.
func TestSlotsWarmNoAllocs(t *testing.T) {
	var shared Slots
	fill(&shared, 100)
	if n := testing.AllocsPerRun(10, func() { shared.fresh = 100; shared.Warm() }); n != 0 {
		t.Errorf("Warm allocated %v times, want 0", n)
	}
}

// A Poll touches exactly the queued slots it then sends: those within the
// window, none past it. Fails if the bound is the queue's depth or
// forgets the events in flight.
func TestTouchSendableIsWhatPollSends(t *testing.T) {
	s := NewSender(SenderConfig{Window: 8})
	now := t0
	for i := range 20 {
		if err := s.Push(message(0x21, 40+20*i, uint32(i)), Critical); err != nil {
			t.Fatal(err)
		}
	}
	for _, ack := range []uint32{0, 3, 4, 12, 20} {
		if ack > 0 {
			s.OnAck(wire.ClientAck{Ack: ack}, now)
		}
		touched := s.touchSendable()
		before := s.Stats().Events
		s.Poll(now, func([]byte) {})
		if sent := s.Stats().Events - before; touched != sent {
			t.Errorf("after the ack of %d: touched %d slots, want the %d the Poll sent", ack, touched, sent)
		}
		now = now.Add(ms(10))
	}
	if got := s.Stats().Events; got != 20 {
		t.Errorf("got %d events sent, want 20", got)
	}
}

// fill carves n slots out of p and frees them.
func fill(p *Slots, n int) {
	rs := make([]*slot, n)
	for i := range rs {
		rs[i] = p.get()
	}
	for _, sl := range rs {
		p.put(sl.no)
	}
}
