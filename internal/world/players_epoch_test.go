package world

import (
	"slices"
	"testing"
)

// TestFirstReconcileHidesAfterPatches: a new view of players takes its
// first changes by Patch (nobody held before); when a pass must then diff
// (a show's rev changed), a player it no longer wants is hidden. stream's
// table gave what Patch inserts before any diffing Reconcile the epoch
// that Reconcile takes for its own, so it read those players as wanted and
// kept them shown (decision 0297). Since decision 0403 a Reconcile marks
// the slots it keeps in a bitmap of its own, so what Patch inserted is
// never read as wanted; the test guards that case.
func TestFirstReconcileHidesAfterPatches(t *testing.T) {
	f := newFixture(t, nil)
	a, ac := f.join()
	b, bc := f.join()
	c, cc := f.join()
	f.spawn(a, ac, at(0, 0))
	f.spawn(b, bc, at(10, 0))
	f.spawn(c, cc, at(0, 10))
	f.advance(tick)
	if shows, _ := playerShows(t, ac.take()); len(shows) != 2 {
		t.Fatalf("a was shown %v, want b and c", showPlayerIDs(shows))
	}
	f.walk(c, cc, at(0, 400)) // past the stream distance and its hold
	if err := f.w.SetPlayerName(b, "Renamed"); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	shows, hides := playerShows(t, ac.take())
	if len(shows) != 1 || shows[0].PlayerID != b.ID() || !slices.Equal(hides, []uint16{c.ID()}) {
		t.Fatalf("a got shows %v, hides %v; want b shown again and c hidden", showPlayerIDs(shows), hides)
	}
	if _, ok := a.ent.players.Shown(uint32(c.ID())); ok {
		t.Fatal("a's view still shows c")
	}
}
