package transport

import (
	"net/netip"
	"testing"
	"time"

	"dlmp/internal/lane"
)

// TestSessionTimerWaitsForTheClientsTick: a client acks once a tick of its
// own, 1 / sync_hz, so a session's retransmission timer adds that tick and
// lane.AckSlack to the RTT, whatever the server's tick rate: before the first
// sample the RTO is the lane's initial SRTT + 4·RTTVAR plus that hold.
// With lane's 40 ms default a 20 Hz client's ack (held up to 50 ms) came
// after the timer on a server ticking at 50 Hz: 400 spurious
// retransmissions a second in the load run.
func TestSessionTimerWaitsForTheClientsTick(t *testing.T) {
	base := lane.DefaultInitialRTT + 4*(lane.DefaultInitialRTT/2)
	for _, hz := range []struct{ tick, sync int }{{20, 20}, {50, 20}, {50, 50}, {100, 5}} {
		cfg := Config{TickHz: hz.tick, SyncHz: hz.sync}
		cfg.fill()
		s := &Server{cfg: cfg}
		sess := newSession(s, 1, netip.MustParseAddrPort("127.0.0.1:9"), 1, time.Unix(1000, 0))
		want := min(base+time.Second/time.Duration(hz.sync)+lane.AckSlack, lane.MaxRTO)
		if got := sess.send.RTO(); got != want {
			t.Errorf("tick_hz %d sync_hz %d: RTO %v, want %v (the client's tick %v + %v slack)",
				hz.tick, hz.sync, got, want, time.Second/time.Duration(hz.sync), lane.AckSlack)
		}
	}
}
