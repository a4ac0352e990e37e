package world

import (
	"testing"
	"time"
)

// TestTickParts: Tick reads the parts' clock once before its first part
// and once after each, and keeps the differences in order; without a
// clock the parts are zero.
func TestTickParts(t *testing.T) {
	f := newFixture(t, nil)
	f.join()
	f.w.Tick(f.now)
	if got := f.w.TickParts(); got != ([NumParts]time.Duration{}) {
		t.Fatalf("got parts %v without a clock, want zero", got)
	}
	ms := time.Millisecond
	reads := []time.Duration{100 * ms, 101 * ms, 108 * ms, 110 * ms, 113 * ms}
	n := 0
	f.w.TimeParts(func() time.Duration {
		if n >= len(reads) {
			t.Fatalf("got read %d of the parts' clock in one tick, want %d", n+1, len(reads))
		}
		n++
		return reads[n-1]
	})
	f.w.Tick(f.now.Add(50 * ms))
	if n != NumParts+1 {
		t.Errorf("got %d reads of the parts' clock, want %d", n, NumParts+1)
	}
	want := [NumParts]time.Duration{PartClock: ms, PartEntities: 7 * ms, PartPrims: 2 * ms, PartPlayers: 3 * ms}
	if got := f.w.TickParts(); got != want {
		t.Errorf("got parts %v, want %v", got, want)
	}
	f.w.TimeParts(nil)
	f.w.Tick(f.now.Add(100 * ms))
	if got := f.w.TickParts(); got != ([NumParts]time.Duration{}) {
		t.Errorf("got parts %v once the clock is removed, want zero", got)
	}
}
