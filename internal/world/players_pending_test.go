package world

import (
	"testing"

	"dlmp/internal/wire"
)

// A view of players whose last pass left shows for lack of room sends them
// on the next ticks without computing its wanted set again.
func TestPendingPlayerViewOnlyFlushes(t *testing.T) {
	f, _, ac, _, _ := pendingView(t)
	passes, flushes := f.w.ents.passes[0], f.w.ents.flushes
	f.advance(tick) // a: 2 more, flushed
	if shows, _ := playerShows(t, ac.take()); len(shows) != 2 {
		t.Fatalf("got %d shows on the second tick, want 2 (the room)", len(shows))
	}
	if got := f.w.ents.passes[0] - passes; got != 0 {
		t.Errorf("got %d views of players computed on a tick with only pending ops, want 0", got)
	}
	if got := f.w.ents.flushes - flushes; got != 1 {
		t.Errorf("got %d flushes, want 1 (a's)", got)
	}

}

// pendingView sets up a with 12 players near, 2 shown and 10 left to show.
func pendingView(t *testing.T) (f *fixture, a *Player, ac *entConn, others []*Player, conns []*testConn) {
	t.Helper()
	f = newFixture(t, nil)
	a, ac = f.joinE()
	f.spawn(a, ac.testConn, at(0, 0))
	for i := range 12 {
		q, qc := f.join()
		f.spawn(q, qc, at(float32(i+1), 0))
		others, conns = append(others, q), append(conns, qc)
	}
	ac.free = SendReserve + 2
	f.advance(tick)
	ac.take()
	ac.free = SendReserve + 2 // the client acknowledged them
	return f, a, ac, others, conns
}

// A player left to show who leaves, changes its show or walks out of reach
// while a's view is pending is not shown as it was wanted before.
func TestPendingPlayerViewStaysExact(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(f *fixture, q *Player, c *testConn)
		shown  bool
	}{
		{"leave", func(f *fixture, q *Player, c *testConn) {
			f.w.Leave(q, wire.ReasonQuit)
			if n, _ := f.join(); n.ID() != q.ID() { // takes the id, not spawned: not to be shown
				t.Fatalf("got id %d for the next join, want %d", n.ID(), q.ID())
			}
		}, false},
		{"color", func(f *fixture, q *Player, c *testConn) {
			if err := f.w.SetPlayerColor(q, 0x00FF00); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"walk away", func(f *fixture, q *Player, c *testConn) { f.walk(q, c, at(PlayerStreamDistance+50, 0)) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, a, ac, others, conns := pendingView(t)
			q := others[11] // the farthest: left to show
			tc.change(f, q, conns[11])
			ac.free = 1000
			f.advance(tick)
			shows, hides := playerShows(t, ac.take())
			var got *wire.PlayerShow
			for _, s := range shows {
				if s.PlayerID == q.ID() {
					got = s
				}
			}
			if len(hides) != 0 {
				t.Errorf("got hides %v, want none", hides)
			}
			if (got != nil) != tc.shown {
				t.Fatalf("got show of player %d = %v, want %v", q.ID(), got != nil, tc.shown)
			}
			if got != nil && got.Color != q.Color() {
				t.Errorf("got color %#x in the show, want %#x", got.Color, q.Color())
			}
			if rev, ok := a.ent.players.Shown(uint32(q.ID())); ok != tc.shown {
				t.Errorf("player %d shown = %v, want %v", q.ID(), ok, tc.shown)
			} else if ok && rev != q.ent.rev {
				t.Errorf("player %d shown at rev %d, want its show's rev %d", q.ID(), rev, q.ent.rev)
			}
			if n := a.ent.players.Len(); n != len(others)-1+b2i(tc.shown) {
				t.Errorf("got %d players shown, want %d", n, len(others)-1+b2i(tc.shown))
			}
		})
	}
}

// A view of players computed again with nothing changed is recognized by its
// fingerprint (no diff, no packet); a change in it is not.
func TestSteadyPlayerViewRecognized(t *testing.T) {
	f := newFixture(t, nil)
	a, ac, b, _ := f.pairShown()
	steady := f.w.ents.steady
	a.ent.playerAt.Invalidate()
	f.advance(tick)
	if got := f.w.ents.steady - steady; got != 1 {
		t.Errorf("got %d steady views, want 1 (a's, invalidated, unchanged)", got)
	}
	if shows, hides := playerShows(t, ac.take()); len(shows)+len(hides) != 0 {
		t.Errorf("got shows %v hides %v, want none", showPlayerIDs(shows), hides)
	}
	if err := f.w.SetPlayerColor(b, 0x123456); err != nil {
		t.Fatal(err)
	}
	steady = f.w.ents.steady
	f.advance(tick)
	if got := f.w.ents.steady - steady; got != 0 {
		t.Errorf("got %d steady views after b's new show, want 0", got)
	}
	if shows, _ := playerShows(t, ac.take()); len(shows) != 1 || shows[0].Color != 0x123456 {
		t.Errorf("got shows %v, want b's new show", showPlayerIDs(shows))
	}
}
