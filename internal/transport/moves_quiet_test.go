package transport

import (
	"testing"
	"time"

	"dlmp/internal/wire"
)

// A viewer sent an empty run of spans (none of its movers' moves this
// tick) while the world's buffer holds moves queues no shared part, so it
// must not be marked as holding this tick's: no step would clear the mark
// (its unrelEnd is empty), and on a later tick whose moves buffer is empty
// (shareMoves not reached) its own packets (a fresh show's PlayerMove, a
// VehicleMove) were dropped as stale shared parts and counted in
// UnreliableDropped (found by session 7's review).
func TestEmptySpansThenOwnPacket(t *testing.T) {
	s, sess := tickFixture(t)
	other := newSession(s, 2, sess.Addr, 1, time.Unix(1000, 0))
	other.confirmed = true
	s.tick.sessions = append(s.tick.sessions, sess, other)
	now := time.Unix(1000, 0)
	w := &worldMoves{}
	w.encode(1, 10)
	sess.SendUnreliableSpans(w.buf, nil)                // tick 1: no mover of sess's this tick
	other.SendUnreliableSpans(w.buf, []uint64{span(1)}) // another viewer has one
	for tick := range 3 {
		if tick > 0 { // quiet ticks: the world's buffer is empty, sess gets an own packet
			sess.SendUnreliableSpans(nil, nil)
			m := wire.PlayerMove{Seq: uint32(tick), PlayerID: 3}
			sess.SendUnreliable(m.Append(nil))
		}
		sess.lastHeard, other.lastHeard = now, now
		s.flush(now, MaxEndsPerFlush)
		for len(s.out) > 0 {
			b := <-s.out
			s.written.Store(b.seq)
			s.recycle(b)
		}
		now = now.Add(50 * time.Millisecond)
	}
	if got := s.stats.UnreliableDropped.Load(); got != 0 {
		t.Fatalf("got %d unreliable datagrams dropped, want 0", got)
	}
}
