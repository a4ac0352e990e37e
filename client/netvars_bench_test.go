package client

import (
	"testing"
	"time"

	"dlmp/internal/wire"
)

// BenchmarkNetvarTickCrowd is a client's netvar tick in a crowd's churn:
// 200 players shown at the start, then each tick (50 ms) one hidden and
// another shown; no request is answered (players without vars: each is
// asked, asked again after ResyncRetry, then dropped). One op is one tick
// with its churn.
func BenchmarkNetvarTickCrowd(b *testing.B) {
	c := netvarClient(b, 2, nil)
	c.deliverNetvar(manifestPacket(sealed(b)))
	const shown, ids = 200, 900
	now := nt0
	for id := range uint16(shown) {
		c.deliverNetvar(&wire.PlayerShow{PlayerID: 100 + id, Active: 1})
	}
	c.netvarTick(now)
	next := uint16(0)
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(50 * time.Millisecond)
		c.deliverNetvar(&wire.PlayerShow{PlayerID: 100 + next%ids})
		c.deliverNetvar(&wire.PlayerShow{PlayerID: 100 + (next+shown)%ids, Active: 1})
		next++
		c.netvarTick(now)
		c.out = c.out[:0]
	}
}
