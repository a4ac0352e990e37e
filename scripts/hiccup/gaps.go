package main

import (
	"fmt"
	"strings"
	"time"
)

// Bounds are the gap lengths counted: a gap counts under every bound it
// reaches.
var Bounds = []time.Duration{100 * time.Microsecond, 500 * time.Microsecond, time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond, 50 * time.Millisecond}

// gaps counts the gaps between two reads of the clocks of a spinning
// thread: all of them, and those that the thread's own CPU clock counted as
// running (at least nine tenths of the gap). A gap the guest's scheduler
// gave to another thread, or the host reported as steal, is not on the
// thread's CPU clock; a gap in which the host held the vCPU unreported (or
// an interrupt ran on it) is.
type gaps struct {
	all, onCPU       []int         // per bound
	maxAll, maxOnCPU time.Duration // the longest gap of each kind
	sumAll, sumOnCPU time.Duration // their total, for gaps of at least Bounds[0]
}

func newGaps() *gaps {
	return &gaps{all: make([]int, len(Bounds)), onCPU: make([]int, len(Bounds))}
}

// add records a gap of wall time wall, in which the thread's CPU clock
// advanced by cpu.
func (g *gaps) add(wall, cpu time.Duration) {
	if wall < Bounds[0] {
		return
	}
	on := cpu >= wall*9/10
	g.sumAll += wall
	g.maxAll = max(g.maxAll, wall)
	if on {
		g.sumOnCPU += wall
		g.maxOnCPU = max(g.maxOnCPU, wall)
	}
	for i, b := range Bounds {
		if wall >= b {
			g.all[i]++
			if on {
				g.onCPU[i]++
			}
		}
	}
}

// String is the report: a line a bound, then the longest and the totals.
func (g *gaps) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-10s %8s %12s\n", "gap ≥", "gaps", "on its CPU")
	for i, bound := range Bounds {
		fmt.Fprintf(&b, "%-10v %8d %12d\n", bound, g.all[i], g.onCPU[i])
	}
	fmt.Fprintf(&b, "longest %v (on its CPU clock %v); total %v (on its CPU clock %v)\n", g.maxAll, g.maxOnCPU, g.sumAll, g.sumOnCPU)
	return b.String()
}
