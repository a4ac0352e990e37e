package world

import (
	"math"
	"testing"

	"dlmp/internal/grid"
)

// TestCutGridCoversEveryViewerInReach: players walk about one spot in
// steps short of and past EntityRequery, each view with a cut of its own
// (10 to 60 m); after every round, every viewer a player ranks within (by
// announceMover's test, from the viewer's stream center) is among the cut
// grid's covering hits around that player. Checked against: the radius
// not widened by EntityRequery (a viewer that moved short of it since its
// place in the grid is missed).
func TestCutGridCoversEveryViewerInReach(t *testing.T) {
	f, r, near, ps, cs := startWalk(t, 1, 296, 60, 30)
	for _, p := range ps {
		d := float32(10 + r.IntN(50))
		f.w.setCut(p, d*d)
	}
	refs := func() []playerRef { return f.w.ents.views.refs }
	for round := range 150 {
		f.walkStep(r, near, ps, cs, []float32{0.5, 2, 3.5, 3.9, 3.9, 7})
		g := f.w.ents.views.cuts.Get(ps[0].scope)
		for _, p := range ps {
			hits := map[uint32]bool{}
			for _, h := range g.Covering(p.pos, nil) {
				hits[h.Key] = true
			}
			for _, q := range ps {
				rq := &refs()[q.id]
				if q != p && ranksIn(grid.Dist2(rq.pos, p.pos), false, rq.cut) && !hits[uint32(q.id)] {
					t.Fatalf("round %d: player %d ranks within %d's cut (%.1f m away, cut %.1f m), not found in the cut grid",
						round, p.id, q.id, math.Sqrt(float64(grid.Dist2(rq.pos, p.pos))), math.Sqrt(float64(rq.cut)))
				}
			}
		}
	}
}
