package lane_test

import (
	"testing"
	"time"

	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// BenchmarkCrowdIdlePoll is the flush of a calm tick for the Senders the
// world pushed nothing to: 1000 Senders, each with 16 events in flight
// whose timers are far off and nothing queued, polled once each in the
// server's order. An op is the 1000 Polls; ns/sender is what a Poll with
// nothing to do costs. cold reads a 128 MiB ballast between ticks (timer
// stopped), as BenchmarkCrowdCold does: what the Poll reads of a Sender is
// then out of the cache. It uses only the exported API.
func BenchmarkCrowdIdlePoll(b *testing.B) {
	b.Run("hot", func(b *testing.B) { crowdIdlePoll(b, 0) })
	b.Run("cold", func(b *testing.B) { crowdIdlePoll(b, 128<<20) })
}

func crowdIdlePoll(b *testing.B, ballastBytes int) {
	const clients, inFlight = 1000, 16
	msg := make([]byte, 38)
	msg[0] = 0x19
	var shared lane.Slots
	senders := make([]*lane.Sender, clients)
	now := time.Unix(1_000_000, 0)
	for i := range senders {
		s := lane.NewSender(lane.SenderConfig{Shared: &shared, InitialRTT: time.Hour})
		for range inFlight {
			if err := s.Push(msg, lane.Critical); err != nil {
				b.Fatal(err)
			}
		}
		s.Poll(now, func([]byte) {})
		s.OnAck(wire.ClientAck{Ack: 1, DelayMs: 5}, now.Add(time.Millisecond))
		senders[i] = s
	}
	ballast := make([]byte, ballastBytes)
	for i := 0; i < len(ballast); i += 4096 {
		ballast[i] = 1
	}
	emitted := 0
	emit := func([]byte) { emitted++ }
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
		now = now.Add(time.Microsecond) // the timers stay far off
		c0 := cpuTime()
		for _, s := range senders {
			s.Poll(now, emit)
		}
		cpu += cpuTime() - c0
		n++
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(n*clients), "cpu-ns/sender")
	if emitted != 0 {
		b.Fatalf("got %d datagrams, want none: nothing is due", emitted)
	}
}
