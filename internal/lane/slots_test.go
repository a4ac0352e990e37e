package lane

import (
	"testing"
	"time"

	"dlmp/internal/wire"
)

// deepen pushes n messages into s, sends them at now and acks them all:
// a client whose queue grew to n and drained.
func deepen(s *Sender, n int, now time.Time) {
	for i := range n {
		_ = s.Push(message(0x21, 40, uint32(i)), Critical)
	}
	s.Poll(now, func([]byte) {})
	s.OnAck(wire.ClientAck{Ack: s.next - 1}, now.Add(ms(20)))
}

// Slots the acks of one Sender free are the next another's pushes take:
// once a client's queue grew and drained, another's growing as deep
// allocates nothing. Fails when each Sender keeps its freed slots.
func TestSlotsSharedBetweenSenders(t *testing.T) {
	var shared Slots
	a := NewSender(SenderConfig{Shared: &shared})
	b := NewSender(SenderConfig{Shared: &shared})
	deepen(a, 200, t0)
	if got := shared.Len(); got != 200 {
		t.Fatalf("got %d shared slots after a's queue drained, want 200", got)
	}
	if got := a.Slots(); got != 0 {
		t.Errorf("a holds %d slots after giving them back, want 0", got)
	}
	now := t0.Add(time.Second)
	if n := testing.AllocsPerRun(10, func() { deepen(b, 200, now); now = now.Add(time.Second) }); n != 0 {
		t.Errorf("b's queue growing as deep as a's allocated %v times, want 0", n)
	}
	if got := b.Slots(); got > DefaultCapacity {
		t.Errorf("b holds %d slots, want at most the capacity", got)
	}
}

// A full shared list leaves the slots freed past its Max with their Sender.
func TestSlotsBounded(t *testing.T) {
	shared := Slots{Max: 50}
	a := NewSender(SenderConfig{Shared: &shared})
	deepen(a, 80, t0)
	if got := shared.Len(); got != 50 {
		t.Errorf("got %d shared slots, want the Max, 50", got)
	}
	if got := a.Slots(); got != 30 {
		t.Errorf("a holds %d slots, want the 30 past the Max", got)
	}
	// a's own come first: its next 30 pushes take no shared slot.
	deepen(a, 30, t0.Add(time.Second))
	if got := shared.Len(); got != 50 {
		t.Errorf("got %d shared slots after a reused its own, want 50", got)
	}
}

// BenchmarkSlotsByTurns: 100 clients whose queues grow to 50..549
// messages (a spread of depths, the turns' differing) and drain, one
// after another (a crowd falling behind by turns), each op one client's
// turn; with and without a shared free list. The slots and
// buffers a client allocates are fresh pages on the tick thread.
func BenchmarkSlotsByTurns(b *testing.B) {
	for _, bc := range []struct {
		name   string
		shared bool
	}{{"own", false}, {"shared", true}} {
		b.Run(bc.name, func(b *testing.B) {
			var shared *Slots
			if bc.shared {
				shared = new(Slots)
			}
			senders := make([]*Sender, 100)
			for i := range senders {
				senders[i] = NewSender(SenderConfig{Shared: shared})
			}
			now, i := t0, 0
			b.ReportAllocs()
			for b.Loop() {
				deepen(senders[i%len(senders)], 50+(i*7919)%500, now)
				now, i = now.Add(ms(50)), i+1
			}
		})
	}
}
