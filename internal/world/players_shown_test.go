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

// TestShownBitsMirrorTheView: StreamedTo of a player reads the viewer's
// shownBits (a bit, not the view's table): in a crowd of 230 walking about,
// one leaving and one joining every round, after every tick each viewer's
// bits hold exactly the players its view of players shows. Checked
// against: a hide not clearing its bit.
func TestShownBitsMirrorTheView(t *testing.T) {
	f, r, near, ps, cs := startWalk(t, 1, 331, 230, 40)
	for round := range 30 {
		f.walkStep(r, near, ps, cs, []float32{0, 3, 6, 12})
		k := r.IntN(len(ps))
		f.w.Leave(ps[k], wire.ReasonQuit)
		p, c := f.join()
		f.spawnAcked(p, c, near(20))
		ps[k], cs[k] = p, c
		f.advance(tick)
		for _, q := range ps {
			for id := range uint32(wire.MaxPlayers) {
				_, want := q.ent.players.Shown(id)
				if got := f.w.StreamedTo(KindPlayer, id, q); got != want {
					t.Fatalf("round %d: StreamedTo(player %d, to %d) = %v, the view shows it: %v", round, id, q.id, got, want)
				}
			}
		}
	}
	if got := f.w.StreamedTo(KindPlayer, 1<<16+uint32(ps[0].id), ps[1]); got {
		t.Errorf("StreamedTo of an id past 16 bits = true, want false")
	}
}
