package lane

import (
	"testing"
	"time"

	"dlmp/internal/wire"
)

// BenchmarkPollDeepWindow is one tick of a sender with a full window of
// 512 events in flight (a slow client during a join storm): an ack that
// acknowledges nothing new, then Poll, with no deadline passed. "list"
// is the sender as it is: the events acks flagged are sent from a list;
// "walk" makes every Poll walk the window, as it did before (the baseline).
func BenchmarkPollDeepWindow(b *testing.B) {
	for _, walk := range []bool{false, true} {
		name := "list"
		if walk {
			name = "walk"
		}
		b.Run(name, func(b *testing.B) {
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
				if walk {
					s.wake = time.Time{}
				}
				s.Poll(now, func([]byte) {})
			}
			if got := s.Stats().Sends; got != sent {
				b.Fatalf("got %d sends, want %d: nothing is due", got, sent)
			}
		})
	}
}
