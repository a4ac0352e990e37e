package world

import (
	"slices"
	"testing"

	"dlmp/internal/grid"
)

// TestPlayerLimitTiesByID: PlayerLimit+2 players on one spot. The viewer
// with the highest id is not among the grid's PlayerLimit+1 nearest hits
// (ties go by id), so its view keeps the PlayerLimit nearest others by
// distance, then id: every other player but the one with the highest id.
func TestPlayerLimitTiesByID(t *testing.T) {
	f := newFixture(t, nil)
	var ps []*Player
	for range PlayerLimit + 2 {
		p, c := f.join()
		f.spawnIn(p, c, grid.Vec{X: 10, Y: 10}, grid.Scope{})
		ps = append(ps, p)
	}
	f.advanceViews(len(ps)) // every view is due: the budget spreads them
	q := ps[len(ps)-1]
	var got []uint32
	for _, p := range ps {
		if _, ok := q.ent.players.Shown(uint32(p.ID())); ok {
			got = append(got, uint32(p.ID()))
		}
	}
	var want []uint32
	for _, p := range ps[:PlayerLimit] {
		want = append(want, uint32(p.ID()))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("the viewer %d shows %d players %v, want the %d lowest ids %v", q.ID(), len(got), got, len(want), want)
	}
}
