package lane_test

import (
	"runtime"
	"testing"
	"time"

	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// BenchmarkCrowdViews is the crossing's tick as the world's view passes
// make it (issue 7, decision 0396): 1000 Senders sharing one Slots; each
// tick 50 of them (a different 50 each tick, all 1000 every 20 ticks) get
// a view's burst of 120 critical events in a row, 100 to 291 bytes
// (PlayerShow, Label3D), while every other Sender gets 2 small events (the
// trickle that mixes the shared list); every Sender is acked what it was
// sent 3 ticks before, at the tick's start, and polled at its end.
//
// Sub-benchmarks: hot, the tick alone; cold, a 128 MiB sweep between ticks
// (one load a line, timer stopped), the world's walk that leaves the
// slots the acks freed out of the cache and their pages out of the TLB.
// push-ns/event is the wall time of the bursts' pushes an event (the
// profile's Push and take), cpu-ns/event the process CPU of the whole tick
// (acks, pushes, polls) per burst event; ack-ns, trickle-ns and poll-ns
// are the wall time of the tick's acks, the trickle's pushes and the
// polls, per burst event too. It uses only the exported API, so
// that the same file measures the base.
func BenchmarkCrowdViews(b *testing.B) {
	b.Run("hot", func(b *testing.B) { crowdViews(b, 0) })
	b.Run("cold", func(b *testing.B) { crowdViews(b, 128<<20) })
}

func crowdViews(b *testing.B, ballastBytes int) {
	const (
		clients  = 1000
		bursts   = 50  // Senders with a view's burst a tick
		perView  = 120 // events of a burst
		trickle  = 2   // events of every other Sender a tick
		ackLag   = 3
		tickStep = 50 * time.Millisecond
	)
	msgs := make([][]byte, perView)
	for i := range msgs {
		n := 100 + (i*67)%192 // 100..291 bytes
		if i%3 == 0 {
			n = 291 // a Label3D
		}
		msgs[i] = make([]byte, n)
		msgs[i][0] = 0x19
		for j := 5; j < n; j++ {
			msgs[i][j] = byte(i + j)
		}
	}
	small := make([]byte, 38)
	small[0] = 0x1a
	var shared lane.Slots
	senders := make([]*lane.Sender, clients)
	for i := range senders {
		senders[i] = lane.NewSender(lane.SenderConfig{Shared: &shared})
	}
	ballast := make([]byte, ballastBytes)
	for i := 0; i < len(ballast); i += 4096 {
		ballast[i] = 1 // fault its pages in once
	}
	var sent [ackLag + 1][clients]uint32
	out := make([]byte, 0, 64<<10)
	buf := func() []byte {
		if cap(out)-len(out) < wire.MaxDatagram {
			out = out[:0]
		}
		return out[len(out):]
	}
	packed := func(d []byte) { out = out[:len(out)+len(d)] }
	push := func(s *lane.Sender, m []byte) {
		if err := s.Push(m, lane.Critical); err != nil {
			b.Fatal(err)
		}
	}
	now := time.Unix(1_000_000, 0)
	tick := 0
	var pushWall, ackWall, trickleWall, pollWall time.Duration
	step := func() {
		now = now.Add(tickStep)
		t0 := time.Now()
		if tick >= ackLag {
			for c, s := range senders {
				s.OnAck(wire.ClientAck{Ack: sent[(tick-ackLag)%(ackLag+1)][c], DelayMs: 5}, now)
			}
		}
		t1 := time.Now()
		ackWall += t1.Sub(t0)
		first := (tick * bursts) % clients
		// The world's order: the view passes one viewer after another,
		// each with its burst, the others' trickle between them.
		for c, s := range senders {
			if c >= first && c < first+bursts {
				t0 := time.Now()
				for _, m := range msgs {
					push(s, m)
				}
				pushWall += time.Since(t0)
				continue
			}
			for range trickle {
				push(s, small)
			}
		}
		t2 := time.Now()
		trickleWall += t2.Sub(t1)
		for c, s := range senders {
			s.PollTo(now, buf, packed)
			sent[tick%(ackLag+1)][c] = uint32(s.Stats().Events)
		}
		pollWall += time.Since(t2)
		tick++
	}
	for range 3 * clients / bursts { // every Sender through three bursts: the shared list mixed
		step()
	}
	runtime.GC()
	pushWall, ackWall, trickleWall, pollWall = 0, 0, 0, 0
	n := 0
	var cpu time.Duration
	b.ReportAllocs()
	for b.Loop() {
		if len(ballast) > 0 {
			b.StopTimer()
			for i := 0; i < len(ballast); i += 64 {
				sweepSink += ballast[i]
			}
			b.StartTimer()
		}
		c0 := cpuTime()
		step()
		cpu += cpuTime() - c0
		n++
	}
	events := float64(n * bursts * perView)
	b.ReportMetric(float64(pushWall.Nanoseconds())/events, "push-ns/event")
	b.ReportMetric(float64(cpu.Nanoseconds())/events, "cpu-ns/event")
	b.ReportMetric(float64(ackWall.Nanoseconds())/events, "ack-ns/event")
	b.ReportMetric(float64((trickleWall-pushWall).Nanoseconds())/events, "trickle-ns/event")
	b.ReportMetric(float64(pollWall.Nanoseconds())/events, "poll-ns/event")
	var retr int
	for _, s := range senders {
		retr += s.Stats().Retransmits
	}
	if retr != 0 {
		b.Fatalf("got %d retransmissions, want 0: nothing is lost or late", retr)
	}
}
