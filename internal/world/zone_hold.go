package world

import (
	"math"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
)

// answerHold is how far a player's last answer of a grid holds: the
// answer at hold.at is the answer at any point p nearer to it than
// hold.hold, in the same grid at the same version. For the grid of zones
// shown to everyone: the 1024 nearest zones by center. Every zone of the answer is within d of at, every
// other one at least d' > d away (the first one the limit refused), and
// hold = (d' − d)/2 less the float slack: at p, each zone of the answer is
// nearer than d + |p − at| < d' − |p − at|, nearer than any other. A player
// who stands, or whose client jitters, then finds their zone view steady
// without asking the box cache (a band of ~1000 zones to scan); a moving
// player's pass never computes a hold (it costs a Nearest of 1025), only a
// settled one's (within cacheSettle of their last zone query), once while
// they stay and the grid does not change.
type answerHold struct {
	g    *grid.Grid
	ver  uint64
	at   grid.Vec
	hold float64
	n    int    // the answer's count (= its weight)
	sum  uint64 // and fingerprint (stream.Mix by zone id and rev)
}

// holds reports whether the answer kept holds at at in g.
func (h *answerHold) holds(g *grid.Grid, at grid.Vec) bool {
	return h.g == g && h.ver == g.Version() && math.Sqrt(float64(grid.Dist2(h.at, at))) < h.hold
}

// near reports whether the hold was computed within cacheSettle of at in
// g as it is: a player whose points straddle a gap narrower than their
// jitter does not compute it again on every pass, but asks the box cache.
func (h *answerHold) near(g *grid.Grid, at grid.Vec) bool {
	return h.g == g && h.ver == g.Version() && grid.Dist2(h.at, at) <= cacheSettle*cacheSettle
}

// holdZones keeps in p's answerHold the answer of n zones with fingerprint
// sum that g gave at at (the box cache's), with how far it holds: the
// grid's 1025 nearest tell the gap between the last zone in and the first
// refused.
func (w *World) holdZones(p *Player, g *grid.Grid, at grid.Vec, n int, sum uint64) {
	pr := &w.prims
	limit := stream.GangZones.Limit()
	h := &p.prims.zoneHold
	pr.holdsMade++
	*h = answerHold{g: g, ver: g.Version(), at: at, n: n, sum: sum, hold: math.Inf(1)}
	pr.holdHits = g.Nearest(at, limit+1, pr.holdHits[:0])
	if len(pr.holdHits) <= limit {
		return // every zone is in: nothing to be refused
	}
	dIn, dOut := limitGap(pr.holdHits) // the last zone in, the first refused
	// Padded as the box caches pad theirs (decision 0190): 1 cm and a
	// relative 1e-5 for the float32 rounding, on each side.
	h.hold = (dOut-dIn)/2 - 0.01 - 2e-5*dOut
}
