package admin

import (
	"testing"
	"time"
)

// TestTickPhasesAndCPU: the tick's phases and its thread's CPU time are
// histograms on /metrics, a series per phase.
func TestTickPhasesAndCPU(t *testing.T) {
	s, err := New(Config{Listen: "127.0.0.1:0"}, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.ObservePhase("world", 3*time.Millisecond)
	s.ObservePhase("world", 1*time.Millisecond)
	s.ObservePhase("flush", 2*time.Millisecond)
	s.ObserveTickCPU(4 * time.Millisecond)
	fams := scrape(t, newHTTPTest(t, s))

	counts := map[string]uint64{}
	sums := map[string]float64{}
	for _, m := range fams["dlmp_tick_phase_seconds"].GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() == "phase" {
				counts[l.GetValue()] = m.GetHistogram().GetSampleCount()
				sums[l.GetValue()] = m.GetHistogram().GetSampleSum()
			}
		}
	}
	if counts["world"] != 2 || counts["flush"] != 1 || len(counts) != 2 {
		t.Errorf("phase sample counts %v, want world 2, flush 1", counts)
	}
	if got := sums["world"]; got < 0.004-1e-9 || got > 0.004+1e-9 {
		t.Errorf("world phase sum %v, want 0.004", got)
	}
	cpu := fams["dlmp_tick_cpu_seconds"].GetMetric()
	if len(cpu) != 1 || cpu[0].GetHistogram().GetSampleCount() != 1 {
		t.Fatalf("dlmp_tick_cpu_seconds: %v, want one sample", cpu)
	}
	if got := cpu[0].GetHistogram().GetSampleSum(); got < 0.004-1e-9 || got > 0.004+1e-9 {
		t.Errorf("tick cpu sum %v, want 0.004", got)
	}
}
