package grid

import (
	"math"
	"slices"
	"testing"
)

// TestCoverEdges checks the branchless covering test (squared distances and
// radii compared as their bits) at its edges: an entity exactly on its
// radius, radius 0, a distance that overflows float32 to +Inf against a
// radius of +Inf, and a finite radius against that +Inf distance.
func TestCoverEdges(t *testing.T) {
	inf := float32(math.Inf(1))
	ents := []struct {
		key uint32
		at  Vec
		r   float32
	}{
		{1, Vec{3, 4, 0}, 5},           // on its radius from the origin
		{2, Vec{3, 4, 0}, 4.9999},      // just inside the distance: not covering
		{3, Vec{0, 0, 0}, 0},           // radius 0, at the origin
		{4, Vec{3e38, 0, 0}, inf},      // far outside the bounds, no limit
		{5, Vec{-3e38, 0, 0}, 1e18},    // far outside, huge finite radius
		{6, Vec{0, 0, 12}, 12},         // on its radius along z
		{7, Vec{0, 0.001, 0}, 0.00099}, // just past a tiny radius
	}
	queries := []Vec{{0, 0, 0}, {-3e38, 0, 0}, {3e38, 0, 0}, {3, 4, 0}, {0, 0, 12}}
	for _, cell := range []float32{8, 64, 512} {
		g := New(cell)
		o := &oracle{ents: map[Handle]oracleEnt{}}
		for _, e := range ents {
			h := g.Insert(e.key, e.at, e.r)
			o.ents[h] = oracleEnt{key: e.key, pos: e.at, r2: e.r * e.r, weight: 1}
		}
		for _, p := range queries {
			checkHits(t, "Covering", g.Covering(p, nil), o.covering(p))
			for _, limit := range []int{1, 2, 3, 10} {
				checkHits(t, "Nearest", g.Nearest(p, limit, nil), o.nearest(p, limit))
			}
		}
	}
	// The origin query must see keys 1, 3 and 6 (on their radius) and 4
	// (+Inf away, +Inf radius), not 2, 5 or 7.
	g := New(64)
	for _, e := range ents {
		g.Insert(e.key, e.at, e.r)
	}
	hs := g.Covering(Vec{}, nil)
	sortHits(hs)
	var keys []uint32
	for _, h := range hs {
		keys = append(keys, h.Key)
	}
	if want := []uint32{3, 1, 6, 4}; !slices.Equal(keys, want) {
		t.Fatalf("Covering(origin): got keys %v, want %v", keys, want)
	}
}
