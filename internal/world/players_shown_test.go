package world

import (
	"slices"
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// TestShowAgainListsThePlayerOnce: a player shown again at a new rev (its
// name changed) stays listed once among the players shown (shownP, kept
// by a set since decision 0296): one PlayerMove of it a tick, and its
// name label wanted once. Checked against: a show again appended.
func TestShowAgainListsThePlayerOnce(t *testing.T) {
	f := newFixture(t, nil)
	a, ac, b, bc := f.pairShown()
	f.label(LabelParams{Pos: grid.Vec{Z: 0.4}, DrawDistance: 40, AttachKind: wire.AttachPlayer, AttachID: uint32(b.ID())})
	for i, name := range []string{"First", "Second", "Third"} {
		if err := f.w.SetPlayerName(b, name); err != nil {
			t.Fatal(err)
		}
		f.advance(tick)
		f.sync(b, bc.testConn, at(10, float32(i+1)), 1)
		ac.takeMoves()
		f.advance(tick)
		if got := ac.movesOf(b.ID()); got != 1 {
			t.Fatalf("after show %d: a got %d PlayerMoves of b in a tick, want 1", i, got)
		}
		if got := slices.Index(a.ent.shownP, b.ID()); got < 0 || slices.Index(a.ent.shownP[got+1:], b.ID()) >= 0 {
			t.Fatalf("after show %d: a's players shown %v, want b once", i, a.ent.shownP)
		}
	}
	f.slowPass()
	if got := a.prims.labels.Pending() + a.prims.labels.Len(); got != 1 {
		t.Fatalf("a's label view holds %d, want b's name label", got)
	}
}
