package world

import (
	"os"
	"runtime"
	"testing"
	"time"
)

// BenchmarkCrowdCrossingAt50Hz is BenchmarkCrowdCrossing's calm and
// crossing-cold on a server ticking at its default 50 Hz while the players
// sync at 20 Hz (decision 0423): each 20 ms tick, the 2 players in 5 whose
// sync falls in it (syncsIn50HzTick) move a step of 50 ms along their line
// and sync, then the world ticks. The one-spot crowd's tick as the load run
// has it by default: cpu-ms/tick and its p99 (cpuMeter), over the syncs and
// the tick. Run it at -benchtime 2000x (40 s of the race, as
// BenchmarkCrowdCrossing's 800x).
func BenchmarkCrowdCrossingAt50Hz(b *testing.B) {
	for _, v := range []struct {
		name       string
		calm, cold bool
	}{{"calm", true, false}, {"crossing-cold", false, true}} {
		b.Run(v.name, func(b *testing.B) { benchCrossingAt50Hz(b, v.calm, v.cold) })
	}
}

func benchCrossingAt50Hz(b *testing.B, calm, cold bool) {
	const hz = 50
	cfg := testConfig()
	cfg.Server.TickHz = hz
	c := newCrossingAt(b, calm, cfg)
	if cold {
		c.coldTicks()
	}
	k := 0
	for range crossingWarm * hz / 20 { // the same 5 s as BenchmarkCrowdCrossing's warm-up
		c.runLineSyncing(k)
		c.w.Tick(c.now)
		k++
	}
	if os.Getenv("HUGE") != "" {
		n, err := hugeHeap()
		b.Logf("huge: %d 2 MB ranges, err %v", n, err)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var m cpuMeter
	b.ReportAllocs()
	for b.Loop() {
		if cold {
			c.sweepCaches()
		}
		m.run(func() {
			c.runLineSyncing(k)
			c.w.Tick(c.now)
		})
		k++
	}
	m.report(b, 1)
}

// runLineSyncing is runLine on the 50 Hz tick k: the clock goes 20 ms on,
// and only the players whose sync falls in the tick move (a 50 ms step)
// and sync.
func (c *oneSpot) runLineSyncing(k int) {
	c.now = c.now.Add(time.Second / 50)
	c.ticks++
	for i := range c.ms {
		if syncsIn50HzTick(k, i) {
			c.runMover(&c.ms[i])
		}
	}
}
