package server

import "runtime/metrics"

// gcMetrics reads the runtime's garbage-collection figures: how many
// collections completed (read at a tick's start and end, to tell the ticks
// a collection ran in) and the CPU they took, for the summary.
type gcMetrics struct {
	s []metrics.Sample // cycles, GC CPU, assists' CPU
}

func newGCMetrics() *gcMetrics {
	return &gcMetrics{s: []metrics.Sample{
		{Name: "/gc/cycles/total:gc-cycles"},
		{Name: "/cpu/classes/gc/total:cpu-seconds"},
		{Name: "/cpu/classes/gc/mark/assist:cpu-seconds"},
	}}
}

// cycles is how many collections have completed.
func (g *gcMetrics) cycles() uint64 {
	metrics.Read(g.s[:1])
	if g.s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return g.s[0].Value.Uint64()
}

// gcTotals are the collections and their CPU time since the process began.
type gcTotals struct {
	cycles              uint64
	cpuSecs, assistSecs float64
}

func (g *gcMetrics) totals() gcTotals {
	metrics.Read(g.s)
	var t gcTotals
	if g.s[0].Value.Kind() == metrics.KindUint64 {
		t.cycles = g.s[0].Value.Uint64()
	}
	if g.s[1].Value.Kind() == metrics.KindFloat64 {
		t.cpuSecs = g.s[1].Value.Float64()
	}
	if g.s[2].Value.Kind() == metrics.KindFloat64 {
		t.assistSecs = g.s[2].Value.Float64()
	}
	return t
}
