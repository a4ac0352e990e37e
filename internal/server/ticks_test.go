package server

import (
	"testing"
	"time"

	"dlmp/internal/world"
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

// TestTickStatsSlowest: the summary's slowest tick is the one that used the
// most CPU, with its own phase split and GC flag, and take resets it.
func TestTickStatsSlowest(t *testing.T) {
	var ts tickStats
	for i, cpu := range []time.Duration{2, 9, 3} {
		cpu *= time.Millisecond
		ph := phases{
			end:    [numPhases]time.Duration{0, cpu, cpu, cpu, cpu + 10*time.Millisecond},
			cpuEnd: [numPhases]time.Duration{0, cpu - time.Millisecond, cpu - time.Millisecond, cpu - time.Millisecond, cpu},
			cpu:    cpu,
			gc:     i == 1,
		}
		ts.add(ph.total(), &ph)
	}
	st := ts.take()
	want := SlowTick{Wall: 19 * time.Millisecond, CPU: 9 * time.Millisecond, GC: true,
		PhaseWall: [numPhases]time.Duration{0, 9 * time.Millisecond, 0, 0, 10 * time.Millisecond},
		PhaseCPU:  [numPhases]time.Duration{0, 8 * time.Millisecond, 0, 0, time.Millisecond}}
	if st.Slowest != want {
		t.Errorf("got slowest %+v, want %+v", st.Slowest, want)
	}
	if st.GCTicks != 1 {
		t.Errorf("got %d ticks with a GC, want 1", st.GCTicks)
	}
	if got := st.Slowest.logValue()["phases_cpu_us"].(map[string]int64)["world"]; got != 8000 {
		t.Errorf("got slowest world CPU %d µs, want 8000", got)
	}
	if st := ts.take(); st.Slowest != (SlowTick{}) || st.GCTicks != 0 {
		t.Errorf("got %+v after take, want no slowest tick", st)
	}
}

// TestTickStatsSlowestMovedThread: a tick whose phases did not all end on
// its thread has no CPU split by phase (the thread clocks differ), only
// its total.
func TestTickStatsSlowestMovedThread(t *testing.T) {
	var ts tickStats
	ph := phases{
		end:    [numPhases]time.Duration{0, 5 * time.Millisecond, 5 * time.Millisecond, 5 * time.Millisecond, 6 * time.Millisecond},
		cpuEnd: [numPhases]time.Duration{0, 9 * time.Millisecond, 0, 0, 0},
		cpu:    4 * time.Millisecond,
		moved:  true,
	}
	ts.add(ph.total(), &ph)
	st := ts.take()
	if st.Slowest.CPU != 4*time.Millisecond || st.Slowest.PhaseCPU != ([numPhases]time.Duration{}) {
		t.Errorf("got slowest CPU %v by phase %v, want 4ms and no split", st.Slowest.CPU, st.Slowest.PhaseCPU)
	}
}

// TestTickStatsSlowestWallWithoutCPU: where no CPU time is measured, the
// slowest tick is the longest in wall time.
func TestTickStatsSlowestWallWithoutCPU(t *testing.T) {
	var ts tickStats
	for _, w := range []time.Duration{4, 7, 5} {
		w *= time.Millisecond
		ph := phases{end: [numPhases]time.Duration{0, w, w, w, w}}
		ts.add(ph.total(), &ph)
	}
	if got := ts.take().Slowest.Wall; got != 7*time.Millisecond {
		t.Errorf("got slowest wall %v, want 7ms", got)
	}
}

// TestTickStatsRunQueueAndOffCPU: a tick's wall time is split into its CPU
// time, its thread's run-queue wait (the OS ran something else) and the
// rest (the goroutine blocked); the slowest tick by wall time is kept apart
// from the one that used the most CPU.
func TestTickStatsRunQueueAndOffCPU(t *testing.T) {
	var ts tickStats
	ms := time.Millisecond
	for _, tk := range []struct{ wall, cpu, runq time.Duration }{
		{3 * ms, 3 * ms, 0},
		{9 * ms, 2 * ms, 6 * ms}, // 1 ms blocked; the slowest by wall
		{5 * ms, 4 * ms, 0},      // 1 ms blocked; the most CPU
	} {
		ph := phases{end: [numPhases]time.Duration{0, tk.wall, tk.wall, tk.wall, tk.wall}, cpu: tk.cpu, runq: tk.runq}
		ph.cpuEnd = [numPhases]time.Duration{0, tk.cpu, tk.cpu, tk.cpu, tk.cpu}
		ts.add(ph.total(), &ph)
	}
	st := ts.take()
	if st.RunQP99 != 6*ms || st.OffP99 != ms {
		t.Errorf("got run-queue p99 %v, off-CPU p99 %v, want 6ms, 1ms", st.RunQP99, st.OffP99)
	}
	if st.SlowestWall.Wall != 9*ms || st.SlowestWall.RunQ != 6*ms || st.SlowestWall.CPU != 2*ms {
		t.Errorf("got slowest wall tick %+v, want wall 9ms, CPU 2ms, run queue 6ms", st.SlowestWall)
	}
	if st.Slowest.CPU != 4*ms {
		t.Errorf("got slowest CPU tick %+v, want CPU 4ms", st.Slowest)
	}
	if got := st.SlowestWall.logValue()["runq_us"]; got != int64(6000) {
		t.Errorf("got runq_us %v, want 6000", got)
	}
	if st := ts.take(); st.RunQP99 != 0 || st.SlowestWall.Wall != 0 {
		t.Errorf("got %+v after take, want empty", st)
	}
}

// TestTickStatsSlowestWorldParts: the slowest tick carries its world
// phase's parts and its flush's retransmissions and datagrams, and the
// summary's slowest_tick names them (world_parts_cpu_us by part).
func TestTickStatsSlowestWorldParts(t *testing.T) {
	var ts tickStats
	ms := time.Millisecond
	for i, cpu := range []time.Duration{3 * ms, 12 * ms, 4 * ms} {
		ph := phases{
			end:          [numPhases]time.Duration{0, cpu, cpu, cpu, cpu + ms},
			cpuEnd:       [numPhases]time.Duration{0, cpu - ms, cpu - ms, cpu - ms, cpu},
			cpu:          cpu,
			parts:        [world.NumParts]time.Duration{world.PartClock: time.Duration(i) * time.Microsecond, world.PartEntities: cpu - 2*ms, world.PartPlayers: ms},
			retransmits:  uint64(10 * (i + 1)),
			datagrams:    uint64(1000 * (i + 1)),
			behind:       i == 0,
			behindBefore: i == 1,
		}
		ts.add(ph.total(), &ph)
	}
	st := ts.take()
	wantParts := [world.NumParts]time.Duration{world.PartClock: time.Microsecond, world.PartEntities: 10 * ms, world.PartPlayers: ms}
	if st.Slowest.WorldPartsCPU != wantParts {
		t.Errorf("got slowest world parts %v, want %v", st.Slowest.WorldPartsCPU, wantParts)
	}
	if st.Slowest.Retransmits != 20 || st.Slowest.DatagramsOut != 2000 {
		t.Errorf("got slowest retransmits %d datagrams %d, want 20 2000", st.Slowest.Retransmits, st.Slowest.DatagramsOut)
	}
	if st.Slowest.WriterBehind || !st.Slowest.WriterBehindBefore {
		t.Errorf("got slowest writer behind %v, before %v; want false, true", st.Slowest.WriterBehind, st.Slowest.WriterBehindBefore)
	}
	if st.WriterBehind != 1 {
		t.Errorf("got %d ticks with the writer behind, want 1", st.WriterBehind)
	}
	lv := st.Slowest.logValue()
	parts, ok := lv["world_parts_cpu_us"].(map[string]int64)
	if !ok {
		t.Fatalf("got world_parts_cpu_us %T, want a map by part", lv["world_parts_cpu_us"])
	}
	want := map[string]int64{"clock": 1, "entities": 10000, "prims": 0, "players": 1000}
	if len(parts) != len(want) {
		t.Errorf("got %d parts %v, want %v", len(parts), parts, want)
	}
	for k, v := range want {
		if parts[k] != v {
			t.Errorf("got part %s %d µs, want %d", k, parts[k], v)
		}
	}
	if lv["retransmits"] != uint64(20) || lv["datagrams_out"] != uint64(2000) {
		t.Errorf("got retransmits %v datagrams_out %v, want 20 2000", lv["retransmits"], lv["datagrams_out"])
	}
	if lv["writer_behind"] != false || lv["writer_behind_before"] != true {
		t.Errorf("got writer_behind %v writer_behind_before %v, want false true", lv["writer_behind"], lv["writer_behind_before"])
	}

	// A tick that changed threads has no CPU split: no parts either.
	ph := phases{end: [numPhases]time.Duration{0, ms, ms, ms, ms}, cpu: 50 * ms, moved: true,
		parts: [world.NumParts]time.Duration{world.PartEntities: 40 * ms}}
	ts.add(ph.total(), &ph)
	if got := ts.take().Slowest.WorldPartsCPU; got != ([world.NumParts]time.Duration{}) {
		t.Errorf("got parts %v of a tick that changed threads, want none", got)
	}
}

// The summary's page faults: the totals, the p99 of a tick's minor
// faults, the ticks past FaultTick, and the slowest tick's own.
func TestTickStatsFaults(t *testing.T) {
	var ts tickStats
	for i := range 100 {
		ph := phases{end: [numPhases]time.Duration{4: time.Millisecond}, cpu: time.Millisecond, minFlt: 1, majFlt: 0}
		switch i {
		case 40:
			ph.cpu, ph.minFlt, ph.majFlt = 30*time.Millisecond, 1000, 2 // the slow one
		case 60:
			ph.minFlt = FaultTick
		}
		ts.add(ph.total(), &ph)
	}
	st := ts.take()
	if st.MinorFaults != 98+1000+FaultTick || st.MajorFaults != 2 {
		t.Errorf("got %d minor, %d major faults, want %d, 2", st.MinorFaults, st.MajorFaults, 98+1000+FaultTick)
	}
	if st.FaultTicks != 2 {
		t.Errorf("got %d fault ticks, want 2", st.FaultTicks)
	}
	if st.MinorFaultsP99 != 1000 {
		t.Errorf("got minor faults p99 %d, want 1000", st.MinorFaultsP99)
	}
	if st.Slowest.MinorFaults != 1000 || st.Slowest.MajorFaults != 2 {
		t.Errorf("got slowest tick's faults %d/%d, want 1000/2", st.Slowest.MinorFaults, st.Slowest.MajorFaults)
	}
	if v := st.Slowest.logValue()["minor_faults"]; v != uint64(1000) {
		t.Errorf("got logged minor_faults %v, want 1000", v)
	}
	if st := ts.take(); st.MinorFaults != 0 || st.FaultTicks != 0 || st.MinorFaultsP99 != 0 {
		t.Errorf("got %+v after take, want no faults", st)
	}
}
