package main

import (
	"strings"
	"testing"
	"time"
)

func TestGapsCountByBoundAndClock(t *testing.T) {
	g := newGaps()
	g.add(50*time.Microsecond, 50*time.Microsecond)  // under the first bound: not a gap
	g.add(200*time.Microsecond, 0)                   // another thread ran, or steal
	g.add(2*time.Millisecond, 1900*time.Microsecond) // on the thread's CPU clock
	g.add(12*time.Millisecond, 12*time.Millisecond)  // on the thread's CPU clock
	g.add(6*time.Millisecond, 5*time.Millisecond)    // under nine tenths: not on it
	wantAll := []int{4, 3, 3, 2, 1, 0}
	wantOn := []int{2, 2, 2, 1, 1, 0}
	for i := range Bounds {
		if g.all[i] != wantAll[i] || g.onCPU[i] != wantOn[i] {
			t.Errorf("gaps ≥ %v: %d, %d on the CPU clock; want %d, %d", Bounds[i], g.all[i], g.onCPU[i], wantAll[i], wantOn[i])
		}
	}
	if g.maxAll != 12*time.Millisecond || g.maxOnCPU != 12*time.Millisecond {
		t.Errorf("longest %v, %v on the CPU clock; want 12ms both", g.maxAll, g.maxOnCPU)
	}
	if want := 20200 * time.Microsecond; g.sumAll != want {
		t.Errorf("total %v, want %v", g.sumAll, want)
	}
	if want := 14 * time.Millisecond; g.sumOnCPU != want {
		t.Errorf("total on the CPU clock %v, want %v", g.sumOnCPU, want)
	}
	if s := g.String(); !strings.Contains(s, "longest 12ms (on its CPU clock 12ms)") {
		t.Errorf("report:\n%s", s)
	}
}
