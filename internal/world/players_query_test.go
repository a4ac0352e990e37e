package world

import (
	"slices"
	"testing"
)

// TestFewPlayersQueriedByCovering: 120 players spread over ~600 m (normal,
// σ 150 m), so that many views reach past the stream distance and none
// holds PlayerLimit, stepping at random. Every view's query is answered
// by Covering (decision 0418), none falls back to Nearest, and after
// every tick each view that is not due wants exactly what a computation
// from scratch by the hold rule wants. It fails without Covering first
// (no view counted) and when a view's candidates miss a player covering it.
func TestFewPlayersQueriedByCovering(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		f, r, _, ps, cs := startWalk(t, seed, 418, 120, 150)
		f.advanceViews(len(ps))
		covered, missed := f.w.ents.views.covered, f.w.ents.views.coverMissed
		for k := range 20 {
			f.stepRandom(r, ps, cs, 30)
			f.advance(tick)
			for _, q := range ps {
				if q.ent.playerAt.Due(q.pos, 0) {
					continue // due, or moved since its pass
				}
				want := heldWanted(q, ps, q.ent.wants)
				if got := wantedIDs(q); !slices.Equal(got, want) {
					t.Fatalf("seed %d, tick %d: player %d's view wants %d players, a recompute %d; differ: %v",
						seed, k, q.ID(), len(got), len(want), symDiff(got, want))
				}
			}
		}
		views := f.w.ents.views.covered - covered
		if views < 100 {
			t.Errorf("seed %d: got %d views queried by Covering, want every view computed (at least 100)", seed, views)
		}
		if got := f.w.ents.views.coverMissed - missed; got != 0 {
			t.Errorf("seed %d: got %d views that fell back to Nearest, want 0 (none holds %d)", seed, got, PlayerLimit)
		}
	}
}

// TestCrowdArrivingFallsBackToNearest: a viewer whose last query found a
// few players tries Covering; when a crowd of 2 × PlayerLimit arrived
// around it, Covering finds more than PlayerLimit+1 and the query is
// Nearest's as before (the same candidates and cut), and the viewer's
// next query is Nearest's alone. The view wants what a computation from
// scratch does.
func TestCrowdArrivingFallsBackToNearest(t *testing.T) {
	f := newFixture(t, nil)
	a, ac := f.joinE()
	f.spawn(a, ac.testConn, at(0, 0))
	var ps []*Player
	for i := range 10 {
		p, c := f.join()
		f.spawn(p, c, at(float32(20+i), 0))
		ps = append(ps, p)
	}
	f.advanceViews(len(ps) + 1)
	if a.ent.lastHits != 11 { // a and the ten cover a
		t.Fatalf("got %d hits in a's last query, want 11", a.ent.lastHits)
	}
	covered, missed := f.w.ents.views.covered, f.w.ents.views.coverMissed
	crowd, _, _ := ringCrowd(f, 2*PlayerLimit, 30, 0.1)
	ps = append(append(ps, crowd...), a)
	f.advanceViews(len(ps))
	if got := f.w.ents.views.coverMissed - missed; got == 0 {
		t.Fatalf("a's view did not fall back to Nearest (%d views by Covering)", f.w.ents.views.covered-covered)
	}
	if got := a.ent.lastHits; got != PlayerLimit+1 {
		t.Errorf("got %d hits in a's last query, want Nearest's %d", got, PlayerLimit+1)
	}
	if got, want := wantedIDs(a), heldWanted(a, ps, a.ent.wants); !slices.Equal(got, want) || len(got) != PlayerLimit {
		t.Fatalf("a's view wants %d players, a recompute %d; differ: %v", len(got), len(want), symDiff(got, want))
	}
	covered = f.w.ents.views.covered
	f.walk(a, ac.testConn, at(2*EntityRequery, 0))
	f.advanceViews(len(ps))
	if a.ent.playerAt.Due(a.pos, 0) {
		t.Fatal("a's view not computed after its step")
	}
	// Every view is of the crowd now: none tries Covering.
	if got := f.w.ents.views.covered - covered; got != 0 {
		t.Errorf("got %d views queried by Covering after the crowd's, want 0", got)
	}
}
