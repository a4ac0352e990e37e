package world

import (
	"bytes"
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// sharedConn is a testConn that takes packets by reference too, as
// transport.Session does: it records the bytes it was given (not a copy).
type sharedConn struct {
	*testConn
	refs [][]byte
}

func (c *sharedConn) SendShared(msg []byte, class lane.Class) error {
	c.refs = append(c.refs, msg)
	return c.testConn.Send(msg, class)
}

// A label's show goes by reference to the connections that take it so:
// its viewers are given the same bytes, a change gives them new bytes and
// leaves the old ones as they were (their lanes may still hold them), and
// a connection without SendShared gets the same packet by Send. Fails if
// the show is encoded in place (the old revision's bytes change), or
// encoded per viewer, or not sent by reference.
func TestLabelShowShared(t *testing.T) {
	f := newFixture(t, nil)
	var conns []*sharedConn
	for range 2 {
		c := &sharedConn{testConn: newConn(t)}
		p, ok := f.w.Join(c, &wire.ServerHello{})
		if !ok {
			t.Fatal("Join: server full")
		}
		f.spawn(p, c.testConn, grid.Vec{X: float32(len(conns))})
		conns = append(conns, c)
	}
	plainP, plain := f.join()
	f.spawn(plainP, plain, grid.Vec{X: 2})

	id := f.label(LabelParams{Text: "first"})
	first := conns[0].refs
	if len(first) != 1 || len(conns[1].refs) != 1 {
		t.Fatalf("got %d and %d shows by reference, want 1 each", len(first), len(conns[1].refs))
	}
	if &first[0][0] != &conns[1].refs[0][0] {
		t.Errorf("the two viewers were given different bytes, want the label's one encoding")
	}
	old := first[0]
	oldCopy := bytes.Clone(old)
	if shows := only[*wire.Label3D](plain.take()); len(shows) != 1 || shows[0].LabelID != id || shows[0].TextString() != "first" {
		t.Errorf("the connection without SendShared: got %+v, want the show of label %d by Send", shows, id)
	}

	if err := f.w.SetLabel(id, LabelParams{Text: "second", DrawDistance: 50}); err != nil {
		t.Fatal(err)
	}
	for v, c := range conns {
		if len(c.refs) != 2 {
			t.Fatalf("viewer %d: got %d shows by reference after the change, want 2", v, len(c.refs))
		}
		cur := c.refs[1]
		if &cur[0] == &old[0] {
			t.Errorf("viewer %d: the change was encoded into the old revision's bytes", v)
		}
		var pkt wire.Label3D
		if _, err := pkt.Parse(cur); err != nil || pkt.TextString() != "second" {
			t.Errorf("viewer %d: got %q (%v), want the show with text second", v, pkt.TextString(), err)
		}
	}
	if !bytes.Equal(old, oldCopy) {
		t.Errorf("the old revision's bytes were written: got %x, want %x", old[:16], oldCopy[:16])
	}
	var pkt wire.Label3D
	if _, err := pkt.Parse(old); err != nil || pkt.TextString() != "first" {
		t.Errorf("the old revision: got %q (%v), want the show with text first", pkt.TextString(), err)
	}
}
