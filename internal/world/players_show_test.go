package world

import (
	"testing"

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
			f.w.sendShow(q, b)
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
