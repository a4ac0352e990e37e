package transport

import (
	"syscall"
	"testing"
	"time"
)

// BenchmarkFlushCrowd: a crowd tick's send path through the real Server,
// the tick's Flush and the writer goroutine's sends until the batch is
// written: 200 sessions, each sent 87 PlayerMoves of 42 bytes (a crowd
// viewer's, as spans: 3 full datagrams and one shorter) and a keepalive
// echo, to 20 loopback sockets nobody reads. With the writer's UDP GSO (as
// the socket offers it) and without (DLMP_GSO=0). Reported: the process's
// CPU time per datagram and per tick.
//
//	go test ./internal/transport -run '^$' -bench FlushCrowd -benchtime 300x
func BenchmarkFlushCrowd(b *testing.B) {
	for _, gso := range []string{"on", "off"} {
		b.Run("gso="+gso, func(b *testing.B) {
			if gso == "off" {
				b.Setenv("DLMP_GSO", "0")
			}
			flushCrowd(b)
		})
	}
}

func flushCrowd(b *testing.B) {
	const sessions, moves = 200, 87
	s, all, now := sinkSessions(b, Config{}, sessions)
	shared := make([]byte, 2*moves*42)
	spans := make([]uint64, moves)
	for i := range spans {
		spans[i] = uint64(2*i*42) | 42<<32
	}
	var ru0 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	out0 := s.Stats().DatagramsOut
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(50 * time.Millisecond)
		for _, sess := range all {
			sess.lastHeard = now
			sess.echoDue = true
			sess.SendUnreliableSpans(shared, spans)
		}
		s.Flush(now)
		for s.Pending() > 0 {
			time.Sleep(20 * time.Microsecond)
		}
	}
	var ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	cpu := float64(ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano())
	dg := float64(s.Stats().DatagramsOut - out0)
	b.ReportMetric(cpu/dg, "cpu-ns/datagram")
	b.ReportMetric(cpu/float64(b.N)/1e3, "cpu-µs/tick")
	b.ReportMetric(dg/float64(b.N), "datagrams/tick")
}
