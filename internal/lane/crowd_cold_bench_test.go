package lane_test

import (
	"runtime"
	"testing"
	"time"

	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// BenchmarkCrowdCold is the crossing's tick of BenchmarkCrowdBurst as the
// load run makes it, where the burst benchmark cannot see it: the world
// pushes each event to the clients that see it, so a tick's 16 events a
// client come in 16 rounds over the 1000 Senders, not 16 in a row to one;
// and between two ticks the world walks its own state, so what the lane
// touched last tick is out of the cache (and its pages out of the TLB)
// when the next tick's acks and pushes reach it.
//
// Sub-benchmarks: hot, the interleaved tick alone; cold, the same with a
// 128 MiB ballast read between ticks (one load a cache line, timer
// stopped): more than the last-level cache and the TLB's reach, the
// scale of the world's walk in the load run (a ~330 MB heap); cold-inrow,
// cold with each client's 16 pushes in a row, as BenchmarkCrowdBurst
// pushes them. An op is a tick (16,000 events): acks, Warm (where the
// commit has it), pushes, PollTo, in the server's order when every ack
// comes at the tick's start. cold-between applies the acks and Warm
// between ticks, after the ballast, as the server does when the acks come
// between ticks (Arrived): cpu-ns/event is then the tick's pushes and
// polls only, between-cpu-ns/event the acks and Warm before it;
// cold-between-walk also reads 16 MiB after Warm and before the pushes
// (timer stopped), the part of the world's walk in its tick that comes
// before its pushes (16 times the core's L2 of the load-run VM, about the
// slots a crossing tick takes twice over).
// ns/event and cpu-ns/event count the lane's work only (ns/event, the
// timer's, includes the acks in every variant). It uses only the exported
// API, so that the same file measures another commit.
func BenchmarkCrowdCold(b *testing.B) {
	b.Run("hot", func(b *testing.B) { crowdCold(b, coldRun{interleave: true}) })
	b.Run("cold", func(b *testing.B) { crowdCold(b, coldRun{ballast: 128 << 20, interleave: true}) })
	b.Run("cold-inrow", func(b *testing.B) { crowdCold(b, coldRun{ballast: 128 << 20}) })
	b.Run("cold-between", func(b *testing.B) {
		crowdCold(b, coldRun{ballast: 128 << 20, interleave: true, between: true})
	})
	b.Run("cold-between-walk", func(b *testing.B) {
		crowdCold(b, coldRun{ballast: 128 << 20, interleave: true, between: true, walk: 16 << 20})
	})
}

// coldRun is one variant of BenchmarkCrowdCold.
type coldRun struct {
	ballast    int  // bytes read between ticks, timer stopped: 0, none
	interleave bool // the pushes in rounds over the Senders, not each one's in a row
	// between: the acks (and Warm) are applied between ticks, after the
	// ballast, as the server's reader path does, and timed apart (their
	// CPU in between-cpu-ns/event); the tick is the pushes and the polls.
	between bool
	walk    int // bytes read after the acks and before the pushes, timer stopped: the world's walk in its tick
}

// warmer is the Slots' Warm where the commit measured has it (decision
// 0374); the same file measures a commit without.
type warmer interface{ Warm() int }

func crowdCold(b *testing.B, run coldRun) {
	const (
		clients  = 1000
		perTick  = 16
		ackLag   = 3
		tickStep = 50 * time.Millisecond
	)
	show, label := make([]byte, 38), nameLabel(42)
	show[0] = 0x19
	var shared lane.Slots
	senders := make([]*lane.Sender, clients)
	for i := range senders {
		senders[i] = lane.NewSender(lane.SenderConfig{Capacity: 4096, Shared: &shared})
	}
	ballast := make([]byte, max(run.ballast, run.walk))
	for i := 0; i < len(ballast); i += 4096 {
		ballast[i] = 1 // fault its pages in once
	}
	sweep := func(n int) {
		for i := 0; i < n; i += 64 {
			sweepSink += ballast[i]
		}
	}
	warm := func() {}
	if w, ok := any(&shared).(warmer); ok {
		warm = func() { w.Warm() }
	}
	var sent [ackLag + 1][clients]uint32
	out := make([]byte, 0, 64<<10)
	var dgBytes int
	buf := func() []byte {
		if cap(out)-len(out) < wire.MaxDatagram {
			out = out[:0]
		}
		return out[len(out):]
	}
	packed := func(d []byte) {
		out = out[:len(out)+len(d)]
		dgBytes += len(d)
	}
	now := time.Unix(1_000_000, 0)
	tick := 0
	acks := func() {
		now = now.Add(tickStep)
		if tick >= ackLag {
			for c, s := range senders {
				s.OnAck(wire.ClientAck{Ack: sent[(tick-ackLag)%(ackLag+1)][c], DelayMs: 5}, now)
			}
		}
		warm()
	}
	step := func() {
		push := func(s *lane.Sender, i int) {
			msg := show
			if i%2 == 1 {
				msg = label
			}
			if err := s.Push(msg, lane.Critical); err != nil {
				b.Fatal(err)
			}
		}
		if run.interleave {
			for i := range perTick {
				for _, s := range senders {
					push(s, i)
				}
			}
		} else {
			for _, s := range senders {
				for i := range perTick {
					push(s, i)
				}
			}
		}
		for c, s := range senders {
			s.PollTo(now, buf, packed)
			sent[tick%(ackLag+1)][c] = uint32(s.Stats().Events)
		}
		tick++
	}
	for range 4 * ackLag {
		acks()
		step()
	}
	runtime.GC() // not the garbage of another benchmark's run
	dgBytes = 0
	n := 0
	var cpu, between time.Duration
	b.ReportAllocs()
	for b.Loop() {
		if run.ballast > 0 {
			b.StopTimer()
			sweep(run.ballast)
			b.StartTimer()
		}
		c0 := cpuTime()
		acks()
		if run.between {
			c1 := cpuTime()
			between += c1 - c0
			if run.walk > 0 {
				b.StopTimer()
				sweep(run.walk)
				b.StartTimer()
			}
			c0 = cpuTime()
		}
		step()
		cpu += cpuTime() - c0
		n++
	}
	events := float64(n * clients * perTick)
	b.ReportMetric(float64(cpu.Nanoseconds())/events, "cpu-ns/event")
	if run.between {
		b.ReportMetric(float64(between.Nanoseconds())/events, "between-cpu-ns/event")
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/events, "ns/event")
	b.ReportMetric(float64(dgBytes)/events, "datagram-B/event")
	var retr int
	for _, s := range senders {
		retr += s.Stats().Retransmits
	}
	if retr != 0 {
		b.Fatalf("got %d retransmissions, want 0: nothing is lost or late", retr)
	}
}

// sweepSink keeps the ballast's reads.
var sweepSink byte
