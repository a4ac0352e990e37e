package world

import (
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
	spans := 0
	for _, c := range conns {
		spans += c.spans
	}
	if spans == 0 {
		t.Fatal("no move sent as a span")
	}
}
