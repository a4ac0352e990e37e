package world

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// TestShowEncodedOnceARev: a player's show is encoded once for its rev and
// skin (players_show.go) and sent as is to every viewer; a change of name
// or color (a new rev) and a skin set before its rev is given (SetSkin,
// before the tick's playerChanged) each make the next show carry the
// change. It fails when the cache ignores the rev or the skin.
func TestShowEncodedOnceARev(t *testing.T) {
	f := newFixture(t, nil)
	a, ac, b, _ := f.pairShown()
	c, cc := f.joinE()
	f.spawn(c, cc.testConn, at(0, 10))
	f.advance(tick)
	ac.take()
	cc.take()
	shows := func(want func(*wire.PlayerShow) bool, what string) {
		t.Helper()
		for _, q := range []*Player{a, c} {
			f.w.sendShow(q, b.id, b)
		}
		for i, k := range []*entConn{ac, cc} {
			got, _ := playerShows(t, k.take())
			if len(got) != 1 || got[0].PlayerID != b.ID() || !want(got[0]) {
				t.Fatalf("%s: viewer %d got shows %+v, want one of b with it", what, i, got)
			}
		}
	}
	shows(func(s *wire.PlayerShow) bool { return s.PlayerName.String() == b.Name() && s.Skin == 1 }, "as spawned")
	// A color set behind the world's back (no new rev) is not seen: the
	// bytes of the rev are sent again, not encoded again.
	color := b.ent.color
	b.ent.color = 0x0000FF
	shows(func(s *wire.PlayerShow) bool { return s.Color == color }, "again, at the same rev")
	b.ent.color = color
	if err := f.w.SetPlayerName(b, "[GM]Carl"); err != nil {
		t.Fatal(err)
	}
	shows(func(s *wire.PlayerShow) bool { return s.PlayerName.String() == "[GM]Carl" }, "renamed")
	if err := f.w.SetPlayerColor(b, 0x00FF00); err != nil {
		t.Fatal(err)
	}
	shows(func(s *wire.PlayerShow) bool { return s.Color == 0x00FF00 && s.PlayerName.String() == "[GM]Carl" }, "recolored")
	if err := f.w.SetSkin(b, 105); err != nil {
		t.Fatal(err)
	}
	shows(func(s *wire.PlayerShow) bool { return s.Skin == 105 && s.Color == 0x00FF00 }, "new skin before its rev")
}

// rawConn keeps the bytes of every critical message it is sent.
type rawConn struct {
	nullConn
	msgs [][]byte
}

func (c *rawConn) Send(msg []byte, _ lane.Class) error {
	c.msgs = append(c.msgs, slices.Clone(msg))
	return nil
}

// TestHideTemplates: a player's hide and a label's hide, written into
// their templates (players_show.go, label.go), are the bytes the codec
// encodes for them, for ids at every byte's edge; and a hide after a
// show or another hide carries only its own id. It fails when the
// templates, or where the id is written, go out of date with the codec.
func TestHideTemplates(t *testing.T) {
	w, err := New(testConfig(), nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	c := &rawConn{}
	var h wire.ServerHello
	q, _ := w.Join(c, &h)
	for _, id := range []uint16{0, 1, 255, 256, 999, 0xFFFE, 0xFFFF, 7} {
		c.msgs = nil
		w.sendHide(q, id)
		want := (&wire.PlayerShow{PlayerID: id}).Append(nil)
		if len(c.msgs) != 1 || !bytes.Equal(c.msgs[0], want) {
			t.Fatalf("hide of player %d: got %x, want %x", id, c.msgs, want)
		}
	}
	for _, id := range []uint32{1, 255, 256, 1 << 16, 1 << 24, math.MaxUint32, 42} {
		c.msgs = nil
		w.sendLabelHide(q, id)
		want := (&wire.Label3D{LabelID: id}).Append(nil)
		if len(c.msgs) != 1 || !bytes.Equal(c.msgs[0], want) {
			t.Fatalf("hide of label %d: got %x, want %x", id, c.msgs, want)
		}
	}
}

// TestShowTableFollowsPlayers: in a crowd whose players step, jump to
// another interior, change skin (before its rev is given), name and color,
// leave and join again in the same ids (a name label on each), every show a client is sent is
// the player's show as its fields are then, and every player in the grid
// has its ref's position and rev as its own (the show table and posOf read
// them there, not from the player) and its label's slot. It fails when the
// table serves a show of an old rev or skin, or a ref goes out of step
// with its player.
func TestShowTableFollowsPlayers(t *testing.T) {
	f := newFixture(t, nil)
	r := rand.New(rand.NewPCG(3, 77))
	var ps []*Player
	var cs []*testConn
	named := func(p *Player) { // a name label, whose slot the player's ref keeps through its landings
		if _, err := f.w.CreateLabel(LabelParams{Text: p.Name(), DrawDistance: 40, AttachKind: wire.AttachPlayer, AttachID: uint32(p.id)}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 24 {
		p, c := f.join()
		f.spawn(p, c, at(float32(i%6)*4, float32(i/6)*4))
		named(p)
		ps, cs = append(ps, p), append(cs, c)
	}
	checkRefs := func(when string) {
		t.Helper()
		for _, p := range f.w.players {
			if p == nil || !p.ent.inGrid {
				continue
			}
			r := f.w.ref(p.id)
			if r.pos != p.pos || r.rev != p.ent.rev || f.w.posOf(p.id, p) != p.pos {
				t.Fatalf("%s: player %d's ref has pos %v rev %d, want %v and %d", when, p.id, r.pos, r.rev, p.pos, p.ent.rev)
			}
		}
		checkLabelRefs(t, f.w)
	}
	checkShows := func(when string) {
		t.Helper()
		for _, c := range cs {
			shows, _ := playerShows(t, c.take())
			for _, s := range shows {
				o := f.w.players[s.PlayerID]
				want := wire.PlayerShow{PlayerID: o.id, Active: 1, Skin: o.skin, Color: o.ent.color, PlayerName: o.ent.name}
				if *s != want {
					t.Fatalf("%s: got show %+v, want %+v", when, *s, want)
				}
			}
			c.ackAll()
		}
	}
	shown := 0
	for round := range 60 {
		f.randomSteps(r, ps, cs, []float32{0, 0.5, 3, 6, 40})
		for i, p := range ps {
			switch r.IntN(30) {
			case 0:
				if err := f.w.SetSkin(p, uint16(1+r.IntN(200))); err != nil {
					t.Fatal(err)
				}
			case 1:
				if err := f.w.SetPlayerName(p, fmt.Sprintf("n%d_%d", round, i)); err != nil {
					t.Fatal(err)
				}
			case 2:
				if err := f.w.SetPlayerColor(p, uint32(r.IntN(0x1000000))); err != nil {
					t.Fatal(err)
				}
			case 3:
				f.spawnIn(p, cs[i], at(float32(r.IntN(20)), 0), grid.Scope{Interior: uint8(r.IntN(2))})
			case 4:
				f.w.Leave(p, 0)
				cs[i].take()
				q, c := f.join() // the id just freed
				named(q)
				f.spawn(q, c, p.pos)
				ps[i], cs[i] = q, c
			}
		}
		checkRefs(fmt.Sprintf("round %d, before the tick", round))
		invalidateAll(ps)
		f.advance(tick)
		checkRefs(fmt.Sprintf("round %d", round))
		for _, c := range cs {
			n, _ := playerShows(t, c.out)
			shown += len(n)
		}
		checkShows(fmt.Sprintf("round %d", round))
	}
	if shown < 500 {
		t.Fatalf("got %d shows in all, want at least 500: the test streams too little", shown)
	}
}
