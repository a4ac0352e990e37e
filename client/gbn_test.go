package client

import (
	"testing"
	"time"

	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// TestGBNTimerWaitsForTheServersTick: the server acks the client's events
// once a tick of its own, at least sync_hz a second, so the client's
// Go-Back-N timer adds one of its ticks and the slack to the RTT: before
// the first sample an event is resent after the initial SRTT + 4·RTTVAR
// and that hold, not lane's 40 ms (shorter than a 20 Hz server's tick).
func TestGBNTimerWaitsForTheServersTick(t *testing.T) {
	base := lane.DefaultInitialRTT + 4*(lane.DefaultInitialRTT/2)
	for _, hz := range []uint8{20, 50, 5} {
		c := &Client{hello: wire.ServerHello{SyncHz: hz}}
		g := c.newGBN()
		if err := g.Push((&wire.ClientChat{Token: 1}).Append(nil)); err != nil {
			t.Fatal(err)
		}
		now := time.Unix(1000, 0)
		g.Poll(now, func([]byte) {})
		want := now.Add(min(base+time.Second/time.Duration(hz)+lane.AckSlack, lane.MaxRTO))
		if got := g.NextTimeout(); !got.Equal(want) {
			t.Errorf("sync_hz %d: resend at %v after the send, want %v", hz, got.Sub(now), want.Sub(now))
		}
	}
}
