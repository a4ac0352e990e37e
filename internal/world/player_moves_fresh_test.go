package world

import (
	"slices"
	"testing"
	"time"

	"dlmp/internal/wire"
)

// byteConn is a connection that checks that every move it is sent as a
// span of the tick's moves is byte for byte the PlayerMove moveOf encodes
// for that player at the tick, and counts the moves sent each way.
type byteConn struct {
	nullConn
	t            *testing.T
	w            *World
	spans, moves int
}

func (c *byteConn) SendUnreliable(msg []byte) { c.moves++ }

func (c *byteConn) SendUnreliableSpans(buf []byte, spans []uint64) {
	for _, sp := range spans {
		off, n := uint32(sp), uint32(sp>>32)
		got := buf[off : off+n]
		pkt, err := wire.Unmarshal(got)
		if err != nil {
			c.t.Fatalf("a span the client drops: %v", err)
		}
		m := pkt.(*wire.PlayerMove)
		if want := c.w.players[m.PlayerID].moveOf(c.w.ents.tick).Append(nil); string(got) != string(want) {
			c.t.Fatalf("tick %d: player %d's move as a span is %x, want %x", c.w.ents.tick, m.PlayerID, got, want)
		}
		c.spans++
	}
}

// A fresh show's first move, when the player's move of the tick is in the
// tick's buffer already (placed far, off its far tick), goes as a span of
// it (decision 0390): every span any viewer is sent, through ticks of a
// crowd running through itself (shows every tick), is the move moveOf
// encodes for that player at that tick, byte for byte, as the fresh show's
// own encoding was. The moves of the shows of idle players are still
// encoded one by one.
func TestFreshShowSpanIsItsMove(t *testing.T) {
	var conns []*byteConn
	w, ms, centers := crowdWorldOf(t, 400, 2, func() Conn {
		c := &byteConn{t: t}
		conns = append(conns, c)
		return c
	})
	for _, c := range conns {
		c.w = w
	}
	now := t0
	var s wire.PlayerSync
	for range 30 {
		now = now.Add(50 * time.Millisecond)
		crowdStep(w, ms, centers, now, &s)
	}
	spans, moves := 0, 0
	for _, c := range conns {
		spans, moves = spans+c.spans, moves+c.moves
	}
	if spans == 0 {
		t.Fatal("no move sent as a span")
	}
	// Every player of this crowd moves on every tick, so every fresh
	// show's move is in the tick's buffer: none is encoded apart.
	if moves != 0 {
		t.Errorf("%d moves encoded one by one, want 0: every fresh show's move is a span", moves)
	}
}

// A fresh show whose player the view no longer shows when the moves go
// (shown by a Leave's recompute, hidden by the next pass before the
// send) is sent no move, as a span or otherwise: the shown set is read
// before the span is taken (decision 0390). With the player still shown,
// the same fresh show is sent its move once.
func TestFreshShowHiddenBeforeSendGetsNoMove(t *testing.T) {
	for _, shown := range []bool{false, true} {
		f := newFixture(t, nil)
		viewer, vc, mover, mc := viewerThenMover(f, false)
		f.spawn(mover, mc.testConn, at(NearMoveDistance+40, 0))
		f.sync(mover, mc.testConn, at(NearMoveDistance+40, 0.3), 1)
		f.advance(tick)
		id := mover.ID()
		if f.w.ents.moves.send[id] == 0 {
			t.Fatal("the mover's move of the tick is not in the tick's buffer")
		}
		// Sent only as a fresh show: off the near and far lists, off its far tick.
		e := &viewer.ent
		e.nearP = slices.DeleteFunc(e.nearP, func(x uint16) bool { return x == id })
		for k := range e.farP {
			e.farP[k] = slices.DeleteFunc(e.farP[k], func(x uint16) bool { return x == id })
		}
		for (f.w.ents.tick+uint32(id))%FarMoveEvery == 0 {
			f.w.ents.tick++ // the buffer stays this tick's: sendPlayerMoves reads only send
		}
		if !shown {
			e.shownBits.del(id)
		}
		e.freshP = append(e.freshP[:0], id)
		vc.takeMoves()
		f.w.sendPlayerMoves(viewer)
		want := 0
		if shown {
			want = 1
		}
		if got := vc.movesOf(id); got != want {
			t.Errorf("shown %v: %d moves of the fresh show sent, want %d", shown, got, want)
		}
	}
}
