package world

import (
	"testing"
	"time"

	"dlmp/internal/wire"
)

// warmConn is a nullConn that takes spans and counts the times its lines
// are loaded ahead (moveWarmer), returning its own mark.
type warmConn struct {
	nullConn
	mark   uint32
	warmed int
}

func (c *warmConn) WarmMoves() uint32                    { c.warmed++; return c.mark }
func (c *warmConn) SendUnreliableSpans([]byte, []uint64) {}

// lineSum is what loading every cache line of ids gives, written plainly:
// the ids at 0, 32, 64, ... (one each 64 bytes) and the last.
func lineSum(ids []uint16) uint32 {
	sum := uint32(0)
	for j, id := range ids {
		if j%32 == 0 || j == len(ids)-1 {
			sum += uint32(id)
		}
	}
	return sum
}

// The moves' warm pass (decision 0389) loads, once a tick, for every
// viewer the lists its sendPlayerMoves reads: the near ones, the far ones
// of the tick's phase (not another phase's), the fresh shows' header, the
// shown ones on its split ticks (only then), and its connection's lines,
// as they are before the viewer's own split; windows of MovesWarmAhead
// viewers, in order, over the players' gaps, each viewer once. Checked
// against the sum of those loads worked out before the pass, tick after
// tick in a crowd (300 players, 40 of them left), with the views changing
// between the passes. Fails when it loads another phase's far list or the
// shown ones off a split tick, skips a window or loads one twice.
func TestWarmMovesLoadsEachViewersLists(t *testing.T) {
	var conns []*warmConn
	w, ms, centers := crowdWorldOf(t, 300, 1, func() Conn {
		c := &warmConn{mark: uint32(1000 + len(conns))}
		conns = append(conns, c)
		return c
	})
	for i := 0; i < len(ms); i += 7 { // gaps among the viewers
		w.Leave(ms[i].p, wire.ReasonQuit)
	}
	now := t0
	var s wire.PlayerSync
	var live []mover
	for _, m := range ms {
		if w.players[m.p.id] == m.p {
			live = append(live, m)
		}
	}
	passes := 0
	for tick := range 24 {
		now = now.Add(50 * time.Millisecond)
		passes++         // each tick's moves, the world's own too
		if tick%3 == 0 { // the views change: fresh shows, splits placed
			crowdStep(w, live, centers, now, &s)
			continue
		}
		crowdSyncs(w, live, centers, now, &s)
		w.ents.tick++
		w.encodeMoves()
		k := (FarMoveEvery - w.ents.tick%FarMoveEvery) % FarMoveEvery
		want := w.ents.moves.warmSum
		for _, p := range w.players {
			if p == nil || p.gone {
				continue
			}
			e := &p.ent
			want += lineSum(e.nearP) + lineSum(e.farP[k]) + uint32(len(e.freshP)) + p.conn.(*warmConn).mark
			if w.splitDue(p) {
				want += lineSum(e.shownP)
			}
		}
		for _, p := range w.players {
			if p != nil && !p.gone {
				w.sendPlayerMoves(p)
			}
		}
		if got := w.ents.moves.warmSum; got != want {
			t.Fatalf("tick %d: the warm pass loaded %d, want %d", w.ents.tick, got, want)
		}
	}
	for _, m := range live {
		c := m.p.conn.(*warmConn)
		if c.warmed != passes {
			t.Fatalf("player %d's connection loaded %d times, want once a pass (%d)", m.p.id, c.warmed, passes)
		}
	}
}
