package world

import (
	"math"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
)

// A blip view found steady without asking the box cache (as zone_hold.go
// for zones; docs/decisions/0235-prim-steps-and-holds.md). When the wanted
// set is the blip grid's answer alone (no attached blip in the world, no
// shown blip in its band), the answer at a point is the answer at every
// point nearer to it than:
//   - half the gap between the last blip of the answer and the first one
//     refused (the nearest-100 order does not change);
//   - the distance of any blip with a draw distance to the edge of its
//     reach (none starts or stops covering: no blip of the answer enters its
//     band either, and a blip in its band is not shown, else it would be
//     wanted), read from blipEdgeG, whose radii are the draw distances plus
//     blipEdgeReach;
//   - blipHoldMax (a blip farther than that from its edge cannot cross it).

// blipHoldMax (meters) caps a blip hold: past it blipEdgeG does not tell
// the edges.
const blipHoldMax = cacheSettle

// blipEdgeReach (meters) is how far past its draw distance a blip's entry
// in blipEdgeG reaches: past blipHoldMax for the holds and past the skin of
// a ring (blip_ring.go) for the rings. An entry farther than blipHoldMax
// from its edge leaves a hold as it was (blipHoldMax caps it).
const blipEdgeReach = max(blipHoldMax, blipRingSkin) + 1

// holdBlips keeps in p's blipHold the answer of n blips with fingerprint
// sum that g gave at p's point (the box cache's), with how far it holds.
func (w *World) holdBlips(p *Player, g *grid.Grid, n int, sum uint64) {
	pr := &w.prims
	limit := stream.Blips.Limit()
	h := &p.prims.blipHold
	pr.holdsMade++
	*h = answerHold{g: g, ver: g.Version(), at: p.pos, n: n, sum: sum}
	hold, far := float64(blipHoldMax), 0.0
	pr.holdHits = g.Nearest(p.pos, limit+1, pr.holdHits[:0])
	if len(pr.holdHits) > limit {
		dIn, dOut := limitGap(pr.holdHits) // the last blip in, the first refused
		hold, far = min(hold, (dOut-dIn)/2), dOut
	}
	if eg := pr.blipEdgeG.Lookup(p.scope); eg != nil {
		pr.holdHits = eg.Covering(p.pos, pr.holdHits[:0])
		for _, e := range pr.holdHits {
			b := pr.blips[e.Key]
			d, r := math.Sqrt(float64(e.Dist2)), float64(b.params.DrawDistance)
			hold = min(hold, math.Abs(d-r))
			far = max(far, d)
		}
	}
	// Padded as the box caches pad theirs (decision 0190): 1 cm and a
	// relative 1e-5 for the float32 rounding, on each side.
	h.hold = hold - 0.01 - 2e-5*far
}
