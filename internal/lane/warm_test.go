package lane

import (
	"testing"
	"time"
)

// Warm touches the slots freed since the last Warm, those on top of the
// list, which the next pushes take first; a take of a fresh slot leaves
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

// Warm touches at most MaxWarm slots, the top ones.
func TestSlotsWarmBounded(t *testing.T) {
	var shared Slots
	for range MaxWarm + 5 {
		shared.put(new(slot))
	}
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
	for range 100 {
		shared.put(new(slot))
	}
	if n := testing.AllocsPerRun(10, func() { shared.fresh = 100; shared.Warm() }); n != 0 {
		t.Errorf("Warm allocated %v times, want 0", n)
	}
}
