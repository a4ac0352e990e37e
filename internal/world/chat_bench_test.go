package world

import "testing"

// BenchmarkBroadcastChat is one chat line sent to 1000 players, as the
// default gamemode relays a player's chat (the load run's bots say 10
// lines a second): the world's part of it, each connection copying the
// message as the lane's Push copies it into the session's queue. ns/op is
// the line; ns/recipient a player's share.
func BenchmarkBroadcastChat(b *testing.B) {
	c := newCrossing(b, true)
	c.coldTicks()
	b.ReportAllocs()
	for b.Loop() {
		if err := c.w.BroadcastChat(1, 0xFFFFFF, "anyone racing?"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(c.conns)), "ns/recipient")
}
