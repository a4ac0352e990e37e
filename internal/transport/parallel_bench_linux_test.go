package transport

import (
	"fmt"
	"net"
	"net/netip"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// BenchmarkFlushParallel: the Flush call of a crossing-like tick through
// the real Server, on the tick's goroutine alone (workers=1) and with one
// flush worker (workers=2), side by side. Each session is sent 16 reliable
// events of 40 bytes (the client acked the last tick's) and 88 moves of
// 42 bytes (spans of the shared moves); load=calm, one event and the
// moves; load=idle sessions get nothing (a keepalive now and then). The writer goroutine writes each tick's
// batches to 20 loopback sockets nobody reads, and is done before the
// next Flush. Reported: the Flush call's wall time (flush-µs) and the
// process's CPU time during it (flush-cpu-µs: the tick's goroutine and the
// worker's), per tick; with workers, the share of the sessions the worker
// stepped. DLMP_BENCH_FIFO=prio runs the flushing goroutine as the
// server's tick thread runs when it may: locked to its thread, in
// SCHED_FIFO at prio (needs CAP_SYS_NICE).
//
//	go test ./internal/transport -run '^$' -bench 'FlushParallel/load=crossing/sessions=1000' -benchtime 100x
func BenchmarkFlushParallel(b *testing.B) {
	for _, c := range []struct {
		load     string
		sessions []int
	}{
		{"crossing", []int{2000, 1000, 512, 256, 128, 64, 32}},
		{"calm", []int{1000}},
		{"idle", []int{1000}},
	} {
		for _, n := range c.sessions {
			for _, workers := range []int{1, 2} {
				b.Run(fmt.Sprintf("load=%s/sessions=%d/workers=%d", c.load, n, workers), func(b *testing.B) {
					flushParallel(b, c.load, n, workers)
				})
			}
		}
	}
}

func flushParallel(b *testing.B, load string, sessions, workers int) {
	const moves = 88
	events := 16
	if load == "calm" {
		events = 1
	}
	cfg := Config{Listen: "127.0.0.1:0", FlushWorkers: workers, FlushAfter: -1}
	s, err := Listen(cfg, nopWorld{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var sinks []netip.AddrPort
	for range 20 {
		uc, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			b.Fatal(err)
		}
		defer uc.Close()
		sinks = append(sinks, uc.LocalAddr().(*net.UDPAddr).AddrPort())
	}
	now := time.Now()
	var all []*Session
	for i := range sessions {
		sess := newSession(s, uint64(i+1), sinks[i%len(sinks)], uint64(i+1), now)
		sess.confirmed, sess.joined = true, true
		s.tick.sessions = append(s.tick.sessions, sess)
		all = append(all, sess)
	}
	shared := make([]byte, 2*moves*42)
	spans := make([]uint64, moves)
	for i := range spans {
		spans[i] = uint64(2*i*42) | 42<<32
	}
	event := make([]byte, 40)
	event[0] = wire.IDSetTime
	if prio, err := strconv.Atoi(os.Getenv("DLMP_BENCH_FIFO")); err == nil {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := setFIFO(prio); err != nil {
			b.Fatal(err)
		}
		defer setFIFO(0)
	}
	var wall, cpu time.Duration
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(50 * time.Millisecond)
		for _, sess := range all {
			sess.lastHeard = now
			if load == "idle" {
				continue
			}
			if sent := sess.send.Stats().Events; sent > 0 {
				sess.send.OnAck(wire.ClientAck{Ack: uint32(sent)}, now)
			}
			for range events {
				if err := sess.Send(event, lane.Critical); err != nil {
					b.Fatal(err)
				}
			}
			sess.SendUnreliableSpans(shared, spans)
		}
		c0 := processCPU()
		t0 := time.Now()
		s.Flush(now)
		wall += time.Since(t0)
		cpu += processCPU() - c0
		for s.Pending() > 0 {
			time.Sleep(20 * time.Microsecond)
		}
	}
	b.ReportMetric(float64(wall.Microseconds())/float64(b.N), "flush-µs")
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "flush-cpu-µs")
	if workers > 1 {
		rounds, joins, stepped := s.FlushRounds()
		b.ReportMetric(float64(joins)/float64(max(rounds, 1)), "joined/round")
		b.ReportMetric(float64(stepped)/float64(b.N*sessions), "worker-share")
	}
}

// setFIFO puts the calling thread in SCHED_FIFO at prio, or back in the
// ordinary class for 0.
func setFIFO(prio int) error {
	policy := uint32(unix.SCHED_FIFO)
	if prio == 0 {
		policy = unix.SCHED_NORMAL
	}
	return unix.SchedSetAttr(0, &unix.SchedAttr{Size: unix.SizeofSchedAttr, Policy: policy, Priority: uint32(prio)}, 0)
}

// processCPU is the CPU time the process used so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
