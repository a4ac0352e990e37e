package transport

import (
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"dlmp/internal/conn"
	"dlmp/internal/wire"
)

// The load generator of BenchmarkWakeups runs in a child process (this test
// binary, see TestMain) so that the benchmark's CPU and context switches
// are the server's alone.
const (
	senderEnv      = "DLMP_TEST_SENDER" // "from-port to-port sessions rate"
	wakeupSessions = 200
)

func TestMain(m *testing.M) {
	if v := os.Getenv(senderEnv); v != "" {
		os.Exit(runSender(v))
	}
	os.Exit(m.Run())
}

// runSender sends ClientKeepalives of tokens 1..sessions, round robin, at
// rate datagrams a second, in the batches a millisecond's worth makes,
// until its parent closes its stdin.
func runSender(v string) int {
	var from, to, sessions, rate int
	if _, err := fmt.Sscan(v, &from, &to, &sessions, &rate); err != nil {
		fmt.Fprintln(os.Stderr, "sender:", err)
		return 2
	}
	c, err := conn.Listen("127.0.0.1:" + strconv.Itoa(from))
	if err != nil {
		fmt.Fprintln(os.Stderr, "sender:", err)
		return 2
	}
	go func() { // the parent closes our stdin to end us
		var b [1]byte
		os.Stdin.Read(b[:])
		os.Exit(0)
	}()
	go func() { // drain the server's answers
		ms := make([]conn.Message, conn.MaxBatch)
		for i := range ms {
			ms[i].Buf = make([]byte, 1500)
		}
		for {
			if _, err := c.ReadBatch(ms); err != nil {
				return
			}
		}
	}()
	dst := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), uint16(to))
	dgs := make([][]byte, sessions)
	for i := range dgs {
		dgs[i] = (&wire.ClientKeepalive{Token: uint64(i + 1), Ping: 1}).Append(nil)
	}
	var ms []conn.Message
	start, sent, next := time.Now(), 0, 0
	for {
		time.Sleep(time.Millisecond)
		due := int(time.Since(start).Seconds()*float64(rate)) - sent
		ms = ms[:0]
		for range due {
			ms = append(ms, conn.Message{Buf: dgs[next], Addr: dst})
			next = (next + 1) % sessions
		}
		if _, err := c.WriteBatch(ms); err != nil {
			fmt.Fprintln(os.Stderr, "sender:", err)
			return 1
		}
		sent += due
	}
}

// freePort finds a free UDP port on loopback.
func freePort(tb testing.TB) int {
	tb.Helper()
	uc, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		tb.Fatal(err)
	}
	defer uc.Close()
	return uc.LocalAddr().(*net.UDPAddr).Port
}

// switches sums the process's threads' voluntary and involuntary context
// switches: each voluntary one is a thread that blocked (and was woken).
func switches(tb testing.TB) (vol, invol int64) {
	tb.Helper()
	tasks, err := filepath.Glob("/proc/self/task/*/status")
	if err != nil {
		tb.Fatal(err)
	}
	for _, p := range tasks {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // a thread that ended
		}
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "voluntary_ctxt_switches:"); ok {
				n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				vol += n
			}
			if v, ok := strings.CutPrefix(line, "nonvoluntary_ctxt_switches:"); ok {
				n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				invol += n
			}
		}
	}
	return vol, invol
}

func cpuNow(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkWakeups: the server's reader, world loop (as server.Run: Receive
// on Arrived, Tick at 20 Hz) and writer under 20,000 datagrams a second
// from 200 sessions (a child process sends them, as 1000 players at 20 Hz
// would), for one second an iteration. It reports the server's CPU per
// second, the OS threads' context switches per second (voluntary: a thread
// that blocked and was woken), and the goroutines' wake-ups per second:
// reads, Arrived deliveries, writer batches and ticks.
//
//	go test ./internal/transport -run '^$' -bench Wakeups -benchtime 2x
func BenchmarkWakeups(b *testing.B) {
	for _, c := range []struct {
		name          string
		pace, arrived time.Duration
	}{
		{"old:pace=1ms,arrived=2ms", time.Millisecond, 2 * time.Millisecond},
		{"pace=2ms,arrived=4ms", 2 * time.Millisecond, 4 * time.Millisecond},
		{"new:pace=5ms,arrived=5ms", ReadPace, ArrivedEvery},
	} {
		for _, locked := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/locked=%v", c.name, locked), func(b *testing.B) {
				wakeupRun(b, Config{ReadPace: c.pace, ArrivedEvery: c.arrived}, locked)
			})
		}
	}
}

// wakeupRun measures one setting; locked locks the world's loop to its
// thread, as server.Run does with --tick-fifo (the load run's setting).
func wakeupRun(b *testing.B, cfg Config, locked bool) {
	port, from := freePort(b), freePort(b)
	cfg.Listen = "127.0.0.1:" + strconv.Itoa(port)
	s, err := Listen(cfg, nopWorld{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	addr := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), uint16(from))
	now := time.Now()
	for i := range wakeupSessions { // sessions bound to the sender's address, as if joined
		sess := newSession(s, uint64(i+1), addr, uint64(i+1), now)
		sess.confirmed, sess.joined = true, true
		s.byToken[sess.Token] = sess
		s.tick.sessions = append(s.tick.sessions, sess)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d %d %d %d", senderEnv, from, port, wakeupSessions, 20000))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Wait() }()

	stop, done := make(chan struct{}), make(chan int)
	go func() { // the world's loop, as server.Run's
		if locked {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
		}
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		deliveries := 0
		for {
			select {
			case <-stop:
				done <- deliveries
				return
			case <-s.Arrived():
				s.Receive(time.Now())
				deliveries++
			case now := <-t.C:
				s.Tick(now)
			}
		}
	}()
	time.Sleep(300 * time.Millisecond) // the sender's start
	st0, cpu0 := s.Stats(), cpuNow(b)
	vol0, invol0 := switches(b)
	start := time.Now()
	for b.Loop() {
		time.Sleep(time.Second)
	}
	secs := time.Since(start).Seconds()
	st1, cpu1 := s.Stats(), cpuNow(b)
	vol1, invol1 := switches(b)
	close(stop)
	deliveries := <-done
	b.ReportMetric(float64(cpu1-cpu0)/1e6/secs, "cpu-ms/s")
	b.ReportMetric(float64(vol1-vol0)/secs, "vol-switches/s")
	b.ReportMetric(float64(invol1-invol0)/secs, "invol-switches/s")
	b.ReportMetric(float64(st1.Reads-st0.Reads)/secs, "reads/s")
	b.ReportMetric(float64(deliveries)/secs, "arrived/s")
	b.ReportMetric(float64(st1.DatagramsIn-st0.DatagramsIn)/secs, "in/s")
	b.ReportMetric(float64(st1.Writes-st0.Writes)/secs, "writes/s")
}
