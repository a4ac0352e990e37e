package server

import (
	"slices"
	"time"

	"dlmp/internal/world"
)

// The phases of one tick, in the order Run runs them.
const (
	phaseReceive  = iota // the clients' packets delivered to the world
	phaseWorld           // world.Tick: streaming, moves, primitives
	phaseNetvars         // network vars' replication
	phaseGamemode        // the gamemode's timers (Lua)
	phaseFlush           // the sessions' lanes and timers, datagrams handed to the writer
	numPhases
)

var phaseNames = [numPhases]string{"receive", "world", "netvars", "gamemode", "flush"}

// phases are the ends of one tick's phases, measured from its start, and
// the CPU time the tick's thread used (0 when not measured), in all and
// by the end of each phase.
type phases struct {
	end    [numPhases]time.Duration
	cpu    time.Duration
	cpuEnd [numPhases]time.Duration // the thread's CPU time at each phase's end, from cpu0
	cpu0   time.Duration            // the thread's CPU time at the tick's start
	tid0   int                      // the thread the tick began on
	runq   time.Duration            // the thread's wait in the kernel's run queue during the tick (when cpu > 0)
	moved  bool                     // a phase ended on another thread: cpuEnd means nothing
	gc     bool                     // a garbage collection ran during the tick

	parts       [world.NumParts]time.Duration // the world phase's parts, thread CPU (world.TickParts)
	retransmits uint64                        // the reliable lanes' retransmissions since the last tick's end
	datagrams   uint64                        // datagrams the writer put on the wire since the last tick's end
	// behind: when the tick's flush began, the writer still held batches
	// (the last tick's datagrams); two or more, and the sessions that sent
	// unreliable packets took a buffer the writer had written before, or
	// dropped them (transport Session.swapUnreliable, decisions 0315, 0318);
	// behindBefore: the tick before's flush found it so.
	behind, behindBefore bool
	// minFlt and majFlt are the minor and major page faults of the tick's
	// thread during the tick (when cpu > 0: it stayed on its thread).
	minFlt, majFlt uint64
}

// mark records that phase ended now (start is the tick's start), and the
// thread's CPU time then.
func (p *phases) mark(phase int, start time.Time) {
	p.end[phase] = time.Since(start)
	if tid, c, ok := threadCPU(); ok && tid == p.tid0 {
		p.cpuEnd[phase] = c - p.cpu0
	} else {
		p.moved = true
	}
}

// cpuLength is the CPU time phase took (meaningful when cpu > 0).
func (p *phases) cpuLength(phase int) time.Duration {
	if phase == 0 {
		return p.cpuEnd[0]
	}
	return p.cpuEnd[phase] - p.cpuEnd[phase-1]
}

// total is the tick's duration: the end of its last phase.
func (p *phases) total() time.Duration { return p.end[numPhases-1] }

// length is how long phase took.
func (p *phases) length(phase int) time.Duration {
	if phase == 0 {
		return p.end[0]
	}
	return p.end[phase] - p.end[phase-1]
}

// TickStats are the durations of the ticks since the last call.
type TickStats struct {
	Count         int
	P50, P99, Max time.Duration
	// PhaseMean and PhaseP99 are the mean and the 99th percentile of each
	// phase's duration, by phase (receive, world, netvars, gamemode, flush).
	PhaseMean, PhaseP99 [numPhases]time.Duration
	// CPUP50 and CPUP99 are the percentiles of the CPU time the ticks used
	// (0 where it is not measured): the wall time less the waits for a CPU.
	CPUP50, CPUP99 time.Duration
	// RunQP99 is the 99th percentile of the time the tick's thread waited
	// in the kernel's run queue (the OS gave the CPU to another thread),
	// and OffP99 of the rest of the wall time not spent on the CPU (the
	// goroutine blocked or descheduled by the Go scheduler).
	RunQP99, OffP99 time.Duration
	// Between is how many times packets were delivered between ticks, and
	// BetweenTook how long that took in all.
	Between     int
	BetweenTook time.Duration
	// Slowest is the tick that used the most CPU (the longest in wall
	// time when no CPU time was measured), phase by phase: what the p99
	// is made of. GCTicks counts the ticks a garbage collection ran in.
	Slowest SlowTick
	GCTicks int
	// SlowestWall is the tick that took the longest wall time.
	SlowestWall SlowTick
	// WriterBehind counts the ticks whose flush found the writer still
	// holding datagrams (SlowTick.WriterBehind).
	WriterBehind int
	// MinorFaults and MajorFaults are the page faults of the ticks' thread
	// during the ticks, in all; MinorFaultsP99 is the 99th percentile of a
	// tick's minor faults, and FaultTicks counts the ticks with at least
	// FaultTick of them (each ~19 µs on the load-run VM, decision 0315).
	MinorFaults, MajorFaults uint64
	MinorFaultsP99           uint64
	FaultTicks               int
}

// FaultTick is how many minor page faults make a tick count in
// TickStats.FaultTicks: a hundred fresh pages, 2–3 ms of system time.
const FaultTick = 100

// SlowTick is one tick's wall and CPU time, in all and by phase, and
// whether a garbage collection ran during it.
type SlowTick struct {
	Wall, CPU           time.Duration
	RunQ                time.Duration // the thread's wait in the kernel's run queue
	PhaseWall, PhaseCPU [numPhases]time.Duration
	GC                  bool
	// WorldPartsCPU splits PhaseCPU's world phase by the parts of
	// world.Tick (by world.Part*); zero where PhaseCPU is.
	WorldPartsCPU [world.NumParts]time.Duration
	// Retransmits and DatagramsOut are the reliable lanes' retransmissions
	// and the datagrams written between the end of the tick before and
	// the end of this one: mostly this tick's flush (the writer runs on
	// its own goroutine, so some of its datagrams count at the next tick).
	Retransmits, DatagramsOut uint64
	// WriterBehind: the tick's flush found the writer still holding
	// datagrams; WriterBehindBefore: the flush of the tick before did
	// (its sessions then took written spares, or dropped their unreliable
	// datagrams: decisions 0315, 0318).
	WriterBehind, WriterBehindBefore bool
	// MinorFaults and MajorFaults are the page faults of the tick's thread
	// during the tick (0 where its CPU is not measured).
	MinorFaults, MajorFaults uint64
}

// logValue is the slowest tick as a log group's value, microseconds.
func (t SlowTick) logValue() map[string]any {
	return map[string]any{
		"wall_us": t.Wall.Microseconds(), "cpu_us": t.CPU.Microseconds(), "runq_us": t.RunQ.Microseconds(),
		"phases_us": phaseMap(&t.PhaseWall), "phases_cpu_us": phaseMap(&t.PhaseCPU), "gc": t.GC,
		"world_parts_cpu_us":   partMap(&t.WorldPartsCPU),
		"retransmits":          t.Retransmits,
		"datagrams_out":        t.DatagramsOut,
		"writer_behind":        t.WriterBehind,
		"writer_behind_before": t.WriterBehindBefore,
		"minor_faults":         t.MinorFaults,
		"major_faults":         t.MajorFaults,
	}
}

// partMap is the world phase's parts as a log group's value, microseconds
// by part name.
func partMap(d *[world.NumParts]time.Duration) map[string]int64 {
	m := make(map[string]int64, world.NumParts)
	for i, n := range world.PartNames {
		m[n] = d[i].Microseconds()
	}
	return m
}

// phaseMeans is PhaseMean as a log group's value, microseconds by phase name.
func (st TickStats) phaseMeans() map[string]int64 { return phaseMap(&st.PhaseMean) }

// phaseP99s is PhaseP99 as a log group's value.
func (st TickStats) phaseP99s() map[string]int64 { return phaseMap(&st.PhaseP99) }

func phaseMap(d *[numPhases]time.Duration) map[string]int64 {
	m := make(map[string]int64, numPhases)
	for i, n := range phaseNames {
		m[n] = d[i].Microseconds()
	}
	return m
}

// peekTicks returns the tick statistics without resetting them.
func (s *Server) peekTicks() TickStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	cp := tickStats{d: slices.Clone(s.ticks.d), cpu: slices.Clone(s.ticks.cpu), betweenN: s.ticks.betweenN, betweenTook: s.ticks.betweenTook,
		slow: s.ticks.slow, slowWall: s.ticks.slowWall, gcTicks: s.ticks.gcTicks, behind: s.ticks.behind,
		runq: slices.Clone(s.ticks.runq), off: slices.Clone(s.ticks.off),
		minFlt: slices.Clone(s.ticks.minFlt), majFlt: s.ticks.majFlt, faultTicks: s.ticks.faultTicks}
	for i := range cp.phase {
		cp.phase[i] = slices.Clone(s.ticks.phase[i])
	}
	return cp.take()
}

// TakeTickStats returns and resets the tick duration statistics.
func (s *Server) TakeTickStats() TickStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ticks.take()
}

// tickStats keeps the durations of recent ticks and of their phases (up to
// a bound).
type tickStats struct {
	d           []time.Duration
	cpu         []time.Duration
	phase       [numPhases][]time.Duration
	betweenN    int
	betweenTook time.Duration
	slow        SlowTick
	slowWall    SlowTick
	gcTicks     int
	behind      int
	runq, off   []time.Duration // run-queue waits and other off-CPU time, of the ticks whose CPU was measured
	minFlt      []uint64        // minor page faults, of the ticks whose CPU was measured
	majFlt      uint64          // major page faults, in all
	faultTicks  int             // ticks with FaultTick minor faults or more
}

// between records one delivery of packets between ticks that took d.
func (t *tickStats) between(d time.Duration) {
	t.betweenN++
	t.betweenTook += d
}

const maxTickSamples = 1 << 16

func (t *tickStats) add(d time.Duration, ph *phases) {
	if len(t.d) >= maxTickSamples {
		return
	}
	t.d = append(t.d, d)
	for i := range t.phase {
		t.phase[i] = append(t.phase[i], ph.length(i))
	}
	if ph.cpu > 0 {
		t.cpu = append(t.cpu, ph.cpu)
		t.runq = append(t.runq, ph.runq)
		t.off = append(t.off, max(0, d-ph.cpu-ph.runq))
		t.minFlt = append(t.minFlt, ph.minFlt)
		t.majFlt += ph.majFlt
		if ph.minFlt >= FaultTick {
			t.faultTicks++
		}
	}
	if ph.gc {
		t.gcTicks++
	}
	if ph.behind {
		t.behind++
	}
	if ph.cpu > t.slow.CPU || (t.slow.CPU == 0 && ph.cpu == 0 && d > t.slow.Wall) {
		t.slow = slowTick(d, ph)
	}
	if d > t.slowWall.Wall {
		t.slowWall = slowTick(d, ph)
	}
}

// slowTick is the tick that took d, phase by phase.
func slowTick(d time.Duration, ph *phases) SlowTick {
	st := SlowTick{Wall: d, CPU: ph.cpu, RunQ: ph.runq, GC: ph.gc, Retransmits: ph.retransmits, DatagramsOut: ph.datagrams,
		WriterBehind: ph.behind, WriterBehindBefore: ph.behindBefore, MinorFaults: ph.minFlt, MajorFaults: ph.majFlt}
	for i := range st.PhaseWall {
		st.PhaseWall[i] = ph.length(i)
		if ph.cpu > 0 && !ph.moved {
			st.PhaseCPU[i] = ph.cpuLength(i)
		}
	}
	if ph.cpu > 0 && !ph.moved {
		st.WorldPartsCPU = ph.parts
	}
	return st
}

func (t *tickStats) take() TickStats {
	st := TickStats{Count: len(t.d), Between: t.betweenN, BetweenTook: t.betweenTook, Slowest: t.slow, SlowestWall: t.slowWall, GCTicks: t.gcTicks, WriterBehind: t.behind}
	st.MajorFaults, st.FaultTicks = t.majFlt, t.faultTicks
	for _, n := range t.minFlt {
		st.MinorFaults += n
	}
	if len(t.minFlt) > 0 {
		slices.Sort(t.minFlt)
		st.MinorFaultsP99 = t.minFlt[min(len(t.minFlt)-1, len(t.minFlt)*99/100)]
	}
	t.betweenN, t.betweenTook, t.slow, t.slowWall, t.gcTicks, t.behind = 0, 0, SlowTick{}, SlowTick{}, 0, 0
	t.minFlt, t.majFlt, t.faultTicks = t.minFlt[:0], 0, 0
	if len(t.d) == 0 {
		return st
	}
	st.P50, st.P99, st.Max = percentiles(t.d)
	if len(t.cpu) > 0 {
		st.CPUP50, st.CPUP99, _ = percentiles(t.cpu)
		t.cpu = t.cpu[:0]
	}
	if len(t.runq) > 0 {
		_, st.RunQP99, _ = percentiles(t.runq)
		_, st.OffP99, _ = percentiles(t.off)
		t.runq, t.off = t.runq[:0], t.off[:0]
	}
	for i, d := range t.phase {
		if len(d) == 0 {
			continue
		}
		var sum time.Duration
		for _, x := range d {
			sum += x
		}
		st.PhaseMean[i] = sum / time.Duration(len(d))
		_, st.PhaseP99[i], _ = percentiles(d)
		t.phase[i] = d[:0]
	}
	t.d = t.d[:0]
	return st
}

// percentiles sorts d and returns its median, 99th percentile and maximum.
func percentiles(d []time.Duration) (p50, p99, max time.Duration) {
	slices.Sort(d)
	n := len(d)
	return d[n/2], d[min(n-1, n*99/100)], d[n-1]
}
