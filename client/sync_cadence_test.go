package client

import (
	"testing"
	"time"

	"dlmp/internal/wire"
)

// syncsAt runs c's tick at each of times and returns how many
// PlayerSyncs it sent.
func syncsAt(t *testing.T, c *Client, times []time.Time) int {
	t.Helper()
	if err := c.SetSync(wire.PlayerSync{State: wire.StateOnFoot, Health: 100}); err != nil {
		t.Fatal(err)
	}
	before := c.sync.Seq
	for _, now := range times {
		c.lastHeard = now // the server is not silent
		c.tickLocked(now)
		c.out = c.out[:0]
	}
	return int(c.sync.Seq - before)
}

// every returns n times step apart from t0.
func every(t0 time.Time, step time.Duration, n int) []time.Time {
	ts := make([]time.Time, n)
	for i := range ts {
		ts[i] = t0.Add(time.Duration(i) * step)
	}
	return ts
}

// TestSyncRateOnAFasterLoop: a sync rate that does not divide the loop's
// keeps its rate, 20 Hz on a 50 Hz loop, rather than sending every third
// tick (16.7 Hz).
func TestSyncRateOnAFasterLoop(t *testing.T) {
	t0 := time.Now()
	for _, tt := range []struct {
		loop, rate, want int // Hz, Hz, syncs in 10 s
	}{
		{50, 20, 200},
		{50, 30, 300},
		{20, 20, 200},
		{100, 7, 70},
		{20, 50, 200}, // a rate above the loop's: one per tick
	} {
		c := loopClient(t, t0)
		c.hello.SyncHz = uint8(tt.loop)
		c.cfg.SyncRate = tt.rate
		got := syncsAt(t, c, every(t0, time.Second/time.Duration(tt.loop), 10*tt.loop))
		if got != tt.want {
			t.Errorf("sync rate %d Hz on a %d Hz loop: %d syncs in 10 s, want %d", tt.rate, tt.loop, got, tt.want)
		}
	}
}

// TestLateLoopRestartsTheSchedule: after the loop stalled for many
// periods, the next tick sends one sync and the schedule starts from it:
// no burst to catch up.
func TestLateLoopRestartsTheSchedule(t *testing.T) {
	t0 := time.Now()
	c := loopClient(t, t0)
	c.hello.SyncHz = 50
	c.cfg.SyncRate = 20
	syncsAt(t, c, every(t0, 20*time.Millisecond, 50))
	stalled := t0.Add(3 * time.Second)
	if got := syncsAt(t, c, every(stalled, 20*time.Millisecond, 2)); got != 1 {
		t.Errorf("the two ticks after a stall sent %d syncs, want 1", got)
	}
	if got := syncsAt(t, c, every(stalled.Add(40*time.Millisecond), 20*time.Millisecond, 50)); got != 20 {
		t.Errorf("the second after a stall: %d syncs, want 20", got)
	}
}

// TestSyncRateWithLateTicks: a tick the timer delivers late (here every
// tenth, by 3 ms) does not cost the next one its sync, as it did when the
// next sync was timed from the late tick.
func TestSyncRateWithLateTicks(t *testing.T) {
	t0 := time.Now()
	c := loopClient(t, t0)
	ts := every(t0, 50*time.Millisecond, 200)
	for i := 5; i < len(ts); i += 10 {
		ts[i] = ts[i].Add(3 * time.Millisecond)
	}
	if got := syncsAt(t, c, ts); got != 200 {
		t.Errorf("20 Hz on a 20 Hz loop with late ticks: %d syncs in 10 s, want 200", got)
	}
}
