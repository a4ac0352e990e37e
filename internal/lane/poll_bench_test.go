package lane

import (
	"testing"
	"time"

	"dlmp/internal/wire"
)

// BenchmarkPollDeepWindow is one tick of a sender with a full window of
// 512 events in flight (a slow client during a join storm): an ack that
// acknowledges nothing new, then Poll, with no deadline passed. It uses
// only the exported API, so that the same file measures another commit
// (the base of docs/benchmarks/loadrun.md's comparisons).
func BenchmarkPollDeepWindow(b *testing.B) {
	s := NewSender(SenderConfig{InitialRTT: time.Second})
	msg := make([]byte, 32)
	msg[0] = 0x21
	for range DefaultWindow {
		if err := s.Push(msg, Critical); err != nil {
			b.Fatal(err)
		}
	}
	now := time.Unix(0, 0)
	s.Poll(now, func([]byte) {})
	sent := s.Stats().Sends
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(time.Microsecond)
		s.OnAck(wire.ClientAck{Ack: 0}, now)
		s.Poll(now, func([]byte) {})
	}
	if got := s.Stats().Sends; got != sent {
		b.Fatalf("got %d sends, want %d: nothing is due", got, sent)
	}
}

// BenchmarkPollLaggingClient is one 50 ms tick of a sender to a client
// that reads its datagrams 6 s late (the starved bots of the load run):
// four events pushed, an ack of the events sent 120 ticks before, Poll.
// The window stays ~480 deep, with deadlines spread over the ticks the
// events were sent in, and timeouts, deferrals and backoff happen as they
// do in the run. The retransmissions per tick are reported: the same for
// every implementation of the lane's rules.
func BenchmarkPollLaggingClient(b *testing.B) {
	s := NewSender(SenderConfig{})
	msg := make([]byte, 48)
	msg[0] = 0x21
	const perTick, lag = 4, 120
	now := time.Unix(0, 0)
	var acked uint32
	tick := 0
	step := func() {
		now = now.Add(50 * time.Millisecond)
		tick++
		for range perTick {
			if err := s.Push(msg, Critical); err != nil {
				b.Fatal(err)
			}
		}
		if tick > lag {
			acked += perTick
			s.OnAck(wire.ClientAck{Ack: acked, DelayMs: 10}, now)
		}
		s.Poll(now, func([]byte) {})
		if err := s.Dead(); err != nil {
			b.Fatal(err)
		}
	}
	for range 4 * lag { // the steady state
		step()
	}
	before := s.Stats()
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		step()
		n++
	}
	after := s.Stats()
	b.ReportMetric(float64(after.Retransmits-before.Retransmits)/float64(n), "retransmits/op")
	b.ReportMetric(float64(s.InFlight()), "in-flight")
}
