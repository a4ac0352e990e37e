package transport

import (
	"runtime"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// BenchmarkMovesFanout: the moves' fan-out of issue 7's crowd crossing
// through the real Server: 1000 sessions, each sent 88 PlayerMoves of 42
// bytes a tick as spans of the world's one buffer of the tick's 1000 moves
// (written in place each tick, as encodeMoves does; each viewer's movers
// scattered over it), then Flush, then the writer goroutine's sends to 20
// loopback sockets nobody reads, waited for outside the tick. Reported:
// tick-cpu-µs/tick, the tick goroutine's own CPU time (its thread is
// locked) for the sends and the Flush; writer-cpu-ns/datagram, the rest of
// the process's CPU time (the writer and the kernel's sends) a datagram;
// proc-cpu-µs/tick, all of it. With GSO (as the socket offers it) and
// without (DLMP_GSO=0). Written to build on the base commit too (decision
// 0355's figures: docs/benchmarks/gather.md). The 50hz cases are decision
// 0423's tick: 20 ms apart, 35 moves a viewer (flush50.md).
//
//	go test ./internal/transport -run '^$' -bench MovesFanout -benchtime 100x
func BenchmarkMovesFanout(b *testing.B) {
	for _, gso := range []string{"on", "off"} {
		b.Run("gso="+gso, func(b *testing.B) {
			if gso == "off" {
				b.Setenv("DLMP_GSO", "0")
			}
			movesFanout(b, 88, 50*time.Millisecond)
		})
	}
	b.Run("50hz", func(b *testing.B) { movesFanout(b, 35, 20*time.Millisecond) })
}

// movesFanout runs ticks period apart, each sending moves PlayerMoves a
// viewer.
func movesFanout(b *testing.B, moves int, period time.Duration) {
	const sessions, movers = 1000, 1000
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	s, all, now := sinkSessions(b, Config{}, sessions)
	spans := make([][]uint64, sessions)
	for i := range all {
		spans[i] = scatteredSpans(i, moves, movers)
	}
	world := make([]byte, movers*42)
	threadCPU := func() int64 {
		var ts unix.Timespec
		if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
			b.Fatal(err)
		}
		return ts.Nano()
	}
	var ru0 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	out0 := s.Stats().DatagramsOut
	var tickCPU int64
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(period)
		for i := range world { // the world's encodeMoves, in place
			world[i] = byte(i) + byte(now.UnixMilli())
		}
		c0 := threadCPU()
		for i, sess := range all {
			sess.lastHeard = now
			sess.SendUnreliableSpans(world, spans[i])
		}
		s.Flush(now)
		tickCPU += threadCPU() - c0
		for s.Pending() > 0 {
			time.Sleep(50 * time.Microsecond)
		}
	}
	var ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	cpu := ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano()
	dg := float64(s.Stats().DatagramsOut - out0)
	b.ReportMetric(float64(tickCPU)/float64(b.N)/1e3, "tick-cpu-µs/tick")
	b.ReportMetric(float64(cpu-tickCPU)/dg, "writer-cpu-ns/datagram")
	b.ReportMetric(float64(cpu)/float64(b.N)/1e3, "proc-cpu-µs/tick")
	b.ReportMetric(dg/float64(b.N), "datagrams/tick")
	if d := s.Stats().UnreliableDropped; d != 0 {
		b.Logf("%d unreliable datagrams dropped", d)
	}
}
