package server

import (
	"testing"
	"time"
)

func TestTickStatsPhases(t *testing.T) {
	var ts tickStats
	for i := 1; i <= 100; i++ {
		// receive 1 ms, world i ms, netvars 0, gamemode 0, flush 2 ms.
		w := time.Duration(i) * time.Millisecond
		ph := phases{end: [numPhases]time.Duration{time.Millisecond, time.Millisecond + w, time.Millisecond + w, time.Millisecond + w, 3*time.Millisecond + w},
			cpu: w}
		ts.add(ph.total(), &ph)
	}
	ts.between(3 * time.Millisecond)
	ts.between(time.Millisecond)
	st := ts.take()
	if st.Between != 2 || st.BetweenTook != 4*time.Millisecond {
		t.Errorf("got %d deliveries between ticks in %v, want 2 in 4ms", st.Between, st.BetweenTook)
	}
	if st.Count != 100 {
		t.Fatalf("got count %d, want 100", st.Count)
	}
	if want := 103 * time.Millisecond; st.Max != want {
		t.Errorf("got max %v, want %v", st.Max, want)
	}
	wantMean := [numPhases]time.Duration{time.Millisecond, 50500 * time.Microsecond, 0, 0, 2 * time.Millisecond}
	if st.PhaseMean != wantMean {
		t.Errorf("got phase means %v, want %v", st.PhaseMean, wantMean)
	}
	if want := 100 * time.Millisecond; st.PhaseP99[phaseWorld] != want {
		t.Errorf("got world p99 %v, want %v", st.PhaseP99[phaseWorld], want)
	}
	if st.CPUP50 != 51*time.Millisecond || st.CPUP99 != 100*time.Millisecond {
		t.Errorf("got tick CPU p50 %v p99 %v, want 51ms 100ms", st.CPUP50, st.CPUP99)
	}
	if got := st.phaseMeans()["flush"]; got != 2000 {
		t.Errorf("got flush mean %d µs, want 2000", got)
	}
	if st := ts.take(); st.Count != 0 || st.PhaseMean[phaseWorld] != 0 || st.Between != 0 {
		t.Errorf("got %+v after take, want empty", st)
	}
}

// TestMonotonicTimes: the world's times never go back (decision 0201): a
// tick whose ticker fired while packets were delivered at a later time
// takes that later time.
func TestMonotonicTimes(t *testing.T) {
	t0 := time.Unix(1000, 0)
	var m monotonic
	for i, tt := range []struct{ in, want time.Time }{
		{t0, t0},
		{t0.Add(50 * time.Millisecond), t0.Add(50 * time.Millisecond)},
		{t0.Add(20 * time.Millisecond), t0.Add(50 * time.Millisecond)}, // earlier: the last one
		{t0.Add(60 * time.Millisecond), t0.Add(60 * time.Millisecond)},
	} {
		if got := m.at(tt.in); !got.Equal(tt.want) {
			t.Errorf("step %d: at(%v) = %v, want %v", i, tt.in, got, tt.want)
		}
	}
}
