package world

import (
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// TestViewsReadRevsFromTheGrid: a view of players takes the revs of the
// players its query reaches from the hits, the player grid carrying each
// player's rev (decision 0440). A crowd of more than PlayerLimit walks at
// random, its players change color (a new rev each), leave and join, and
// change scope; after every tick the grid holds every player's current
// rev, reconcilePlayers' scratch set of held hits is clear, and every view
// that is neither due nor left with ops shows each of its players at its
// current rev; once every due view is computed, all of them do. Fails
// when a rev change or an insert does not reach the grid, or when the
// held hits are taken twice or not cleared.
func TestViewsReadRevsFromTheGrid(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		f, r, near, ps, cs := startWalk(t, seed, 440, PlayerLimit+30, 25)
		f.advanceViews(len(ps))
		check := func(when string, all bool) {
			t.Helper()
			for i, word := range f.w.ents.views.hitHeld {
				if word != 0 {
					t.Fatalf("seed %d, %s: hitHeld word %d is %#x, want clear", seed, when, i, word)
				}
			}
			for _, o := range ps {
				if got, ok := playerGridRev(f.w, o); !ok || got != o.ent.rev {
					t.Fatalf("seed %d, %s: player %d's rev in the grid is %d (found %v), want %d", seed, when, o.ID(), got, ok, o.ent.rev)
				}
			}
			for _, q := range ps {
				if !all && (q.ent.playerAt.Due(q.pos, requeryOf(q.id)) || q.ent.players.Pending() > 0) {
					continue
				}
				if got, want := len(q.ent.shownP), len(q.ent.wantP); got != want {
					t.Fatalf("seed %d, %s: player %d shows %d players, wants %d", seed, when, q.ID(), got, want)
				}
				for _, id := range q.ent.wantP {
					if rev, ok := q.ent.players.Shown(uint32(id)); !ok || rev != f.w.players[id].ent.rev {
						t.Fatalf("seed %d, %s: player %d shows %d at rev %d (shown %v), its rev is %d",
							seed, when, q.ID(), id, rev, ok, f.w.players[id].ent.rev)
					}
				}
			}
		}
		for k := range 30 {
			f.stepRandom(r, ps, cs, 25)
			for range 5 {
				if err := f.w.SetPlayerColor(ps[r.IntN(len(ps))], r.Uint32N(0x1000000)); err != nil {
					t.Fatal(err)
				}
			}
			switch k % 5 {
			case 1: // one leaves, another joins near the crowd
				i := r.IntN(len(ps))
				f.w.Leave(ps[i], wire.ReasonQuit)
				p, c := f.join()
				f.spawn(p, c, near(25))
				ps[i], cs[i] = p, c
			case 3: // one goes to another scope and back later
				i := r.IntN(len(ps))
				f.spawnIn(ps[i], cs[i], ps[i].pos, grid.Scope{World: int32(1 - ps[i].scope.World)})
			}
			f.advance(tick)
			check("after a tick", false)
		}
		f.advanceViews(len(ps))
		check("all views computed", true)
	}
}

// playerGridRev returns the rev the player grid of o's scope holds for o, as a
// query at o's stream center returns it.
func playerGridRev(w *World, o *Player) (uint32, bool) {
	g := w.ents.playerGrid.Lookup(o.scope)
	if g == nil || !o.ent.inGrid {
		return 0, false
	}
	for _, h := range g.Covering(o.pos, nil) {
		if h.Key == uint32(o.id) {
			return h.Rev, true
		}
	}
	return 0, false
}
