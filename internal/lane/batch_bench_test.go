package lane

import (
	"errors"
	"fmt"
	"runtime"
	"testing"

	"dlmp/internal/threadcpu"
)

// BenchmarkViewPush measures how much of a push is per call (decision
// 0387): one view computation's events, all critical and all to one
// viewer (a crossing's ~120 PlayerShow of 38 bytes), pushed into one of
// 1000 Senders sharing one Slots, then taken out again (released, as acks
// would). Sub-benchmarks: each, one Push an event; each-conn, the same
// through an interface and a Session-like wrapper (the world's Conn.Send
// and the transport's checks); batch, a prototype that checks the queue
// once for the view and then only takes, copies and enqueues (pushAll
// below, not the lane's API); batch-gather, batch with every message
// first copied into a scratch of the caller's (the world would copy its
// hides, now written into one buffer in turn); drain, the release alone,
// which the others include. The -cold variants read 32 MiB between ops
// (timer stopped), so that the Sender, its session and the slots are out
// of the cache, as in the load run's crossing. ns/event is the op's time
// over its events; cpu-ns/event the thread's CPU time an event, without
// the time it waited for a core (hot variants only: in a cold one it would
// count Stop/StartTimer's own work).
func BenchmarkViewPush(b *testing.B) {
	for _, v := range []struct {
		name string
		push func(s *Sender, c conn, msgs [][]byte)
	}{
		{"each", func(s *Sender, _ conn, msgs [][]byte) {
			for _, m := range msgs {
				if s.Push(m, Critical) != nil {
					panic("full")
				}
			}
		}},
		{"each-conn", func(_ *Sender, c conn, msgs [][]byte) {
			for _, m := range msgs {
				if c.Send(m, Critical) != nil {
					panic("full")
				}
			}
		}},
		{"batch", func(s *Sender, _ conn, msgs [][]byte) {
			if n, err := s.pushAll(msgs); err != nil || n != len(msgs) {
				panic("full")
			}
		}},
		{"batch-gather", func(s *Sender, _ conn, msgs [][]byte) {
			// The world's part of a batch at most: each message copied
			// into a scratch of the view's, as a hide written from its
			// template would be, before the one call.
			buf := gather[:0]
			for i, m := range msgs {
				buf = append(buf, m...)
				gathered[i] = buf[len(buf)-len(m):]
			}
			if n, err := s.pushAll(gathered[:len(msgs)]); err != nil || n != len(msgs) {
				panic("full")
			}
		}},
		{"drain", func(*Sender, conn, [][]byte) {}},
	} {
		b.Run(v.name, func(b *testing.B) { viewPush(b, v.push, 0) })
	}
	for _, v := range []struct {
		name string
		push func(s *Sender, c conn, msgs [][]byte)
	}{
		{"each-conn-cold", viewPushes["each-conn"]},
		{"batch-cold", viewPushes["batch"]},
	} {
		b.Run(v.name, func(b *testing.B) { viewPush(b, v.push, 32<<20) })
	}
}

// conn is the world's seam (world.Conn's Send), for each-conn.
type conn interface {
	Send(msg []byte, class Class) error
}

// session is the transport's Session.Send, for each-conn.
type session struct {
	s       *Sender
	closing uint8
	ended   bool
	kicks   int
}

func (c *session) Send(msg []byte, class Class) error {
	if c.closing != 0 || c.ended {
		return errors.New("closed")
	}
	err := c.s.Push(msg, class)
	if errors.Is(err, ErrQueueFull) && class == Critical {
		c.kicks++
	}
	if err != nil {
		return fmt.Errorf("transport: %w", err)
	}
	return nil
}

// gather and gathered are batch-gather's scratch: a view's messages copied.
var (
	gather   = make([]byte, 0, 120*38)
	gathered = make([][]byte, 120)
)

// viewPushes are the ways BenchmarkViewPush pushes a view's events.
var viewPushes = map[string]func(s *Sender, c conn, msgs [][]byte){}

func init() {
	viewPushes["each-conn"] = func(_ *Sender, c conn, msgs [][]byte) {
		for _, m := range msgs {
			if c.Send(m, Critical) != nil {
				panic("full")
			}
		}
	}
	viewPushes["batch"] = func(s *Sender, _ conn, msgs [][]byte) {
		if n, err := s.pushAll(msgs); err != nil || n != len(msgs) {
			panic("full")
		}
	}
}

// viewPush runs one variant; ballast bytes are read between ops, timer
// stopped (0: none).
func viewPush(b *testing.B, push func(s *Sender, c conn, msgs [][]byte), ballast int) {
	const (
		clients = 1000
		perView = 120
	)
	var shared Slots
	senders := make([]*Sender, clients)
	conns := make([]conn, clients)
	for i := range senders {
		senders[i] = NewSender(SenderConfig{Capacity: 4096, Shared: &shared})
		conns[i] = &session{s: senders[i]}
	}
	enc := make([]byte, perView*38) // the world's show table: one encoding a player
	msgs := make([][]byte, perView)
	for i := range msgs {
		msgs[i] = enc[i*38 : (i+1)*38 : (i+1)*38]
		msgs[i][0] = 0x19
	}
	drain := func(s *Sender) {
		for _, sl := range s.pending[s.pendHead:] {
			s.release(sl, sl.no)
		}
		clear(s.pending)
		s.pending, s.pendHead = s.pending[:0], 0
	}
	for i := range senders { // every Sender's queue and the shared slots grown once
		push(senders[i], conns[i], msgs)
		drain(senders[i])
	}
	sweep := make([]byte, ballast)
	var sink byte
	runtime.LockOSThread() // the thread's CPU clock measures this goroutine
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	i := 0
	start := threadcpu.Spent()
	for b.Loop() {
		if ballast > 0 {
			b.StopTimer()
			for j := 0; j < len(sweep); j += 64 {
				sink += sweep[j]
				sweep[j] = sink
			}
			b.StartTimer()
		}
		push(senders[i], conns[i], msgs)
		drain(senders[i])
		i = (i + 1) % clients
	}
	cpu := threadcpu.Spent() - start
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*perView), "ns/event")
	if ballast == 0 { // Stop/StartTimer's own CPU (memory stats) would swamp a cold op's
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*perView), "cpu-ns/event")
	}
	if sink == 1 {
		b.Log("") // keeps the sweep's loads
	}
}

// pushAll is the prototype of a view's batch that BenchmarkViewPush
// measures: Push's checks once for the batch (the link, the queue's room),
// then per message only its slot, its copy and its place in the queue. It
// takes critical messages of one slot each; it pushes them in order until
// one does not fit and returns how many it pushed.
func (s *Sender) pushAll(msgs [][]byte) (int, error) {
	if s.dead != nil {
		return 0, s.dead
	}
	free := s.Free()
	for i, m := range msgs {
		if len(m) < 5 || len(m) > min(slotRoom, s.cfg.Budget) {
			return i, fmt.Errorf("%w: %d bytes", ErrMessage, len(m))
		}
		if free < 1 {
			return i, fmt.Errorf("%w: no slot free of %d", ErrQueueFull, s.cfg.Capacity)
		}
		free--
		s.pushed++
		sl := s.take(Critical)
		sl.n = uint16(copy(sl.msg[:], m))
		s.enqueue(sl)
	}
	s.stats.Pushed += len(msgs)
	return len(msgs), nil
}
