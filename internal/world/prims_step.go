package world

import (
	"math"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
)

// primStep is where a player's last answer of a kind's grid (blips, gang
// zones) was taken and its cut (grid.CutOf), so that the next pass of a
// player who moved tells the change of the answer by one grid.Diff and
// applies it to the view (stream.View.Patch) instead of listing the new
// answer and reconciling the whole (docs/decisions/0210-tick-by-change.md,
// docs/decisions/0235-prim-steps-and-holds.md). A player who moved only a little
// takes the box cache's steady path instead (cacheSettle).
type primStep struct {
	g   *grid.Grid // the grid of the answer (nil: none kept)
	at  grid.Vec
	cut uint64
}

// keep records the answer hits (the whole, at at, in g) of limit.
func (st *primStep) keep(g *grid.Grid, at grid.Vec, hits []grid.Hit, limit int) {
	*st = primStep{g: g, at: at, cut: grid.CutOf(hits, limit)}
}

// due reports whether a pass at at in g should try a step: an answer of g
// is kept and the player moved more than cacheSettle from it.
func (st *primStep) due(g *grid.Grid, at grid.Vec) bool {
	return st.g == g && grid.Dist2(st.at, at) > cacheSettle*cacheSettle
}

// stepDiff computes into pr.step the change of g's answer from st's point
// to at, with pr.hide the ids that leave it and pr.show the wants that
// enter it. It reports false when Diff could not tell (the caller lists).
func (w *World) stepDiff(st *primStep, g *grid.Grid, at grid.Vec, limit int, sum func(key, rev uint32) uint64, ids []uint32) bool {
	pr := &w.prims
	s := &pr.step
	if !g.Diff(st.at, at, limit, st.cut, sum, s) {
		return false
	}
	pr.stepWants(ids)
	return true
}

// stepWants turns pr.step's Leave and Enter hits into pr.hide (the ids that
// leave) and pr.show (the wants that enter), ids mapping hit keys to ids.
func (pr *prims) stepWants(ids []uint32) {
	s := &pr.step
	pr.hide = pr.hide[:0]
	for i := range s.Leave {
		pr.hide = append(pr.hide, ids[s.Leave[i].Key])
	}
	pr.show = pr.show[:0]
	for i := range s.Enter {
		h := &s.Enter[i]
		pr.show = append(pr.show, stream.Want{ID: ids[h.Key], Rev: h.Rev, Dist2: h.Dist2})
	}
}

// stepPatch applies pr.hide and pr.show to v if v shows exactly the set of
// n entities with fingerprint sum (stream.View.Patch), and moves st to at
// with the step's cut.
func (w *World) stepPatch(st *primStep, at grid.Vec, n int, sum uint64, v *stream.View, budget int) bool {
	pr := &w.prims
	var patched bool
	if pr.ops, patched = v.Patch(n, sum, pr.hide, pr.show, budget, stream.HidesFirst, pr.ops[:0]); !patched {
		return false
	}
	st.at, st.cut = at, pr.step.Cut
	pr.steps++
	return true
}

// cutDist2 is the squared distance of a cut's rank (grid.Hit.Rank).
func cutDist2(cut uint64) float32 { return math.Float32frombits(uint32(cut >> 32)) }

// limitGap returns the distances of the last hit a nearest-limit answer
// keeps and of the first it refuses, from the limit+1 nearest hits (more
// than limit of them): the two largest ranks.
func limitGap(hits []grid.Hit) (dIn, dOut float64) {
	var in, out uint64
	for i := range hits {
		r := hits[i].Rank()
		if r > out {
			in, out = out, r
		} else if r > in {
			in = r
		}
	}
	return math.Sqrt(float64(cutDist2(in))), math.Sqrt(float64(cutDist2(out)))
}

// settle records a query of kind k answered by a step at at: the box
// cache's spot of the player moves with it (cache.go, query), so that the
// next pass near it counts as settled.
func settle(p *Player, k cacheKind, at grid.Vec) {
	sp := &p.spots[k]
	*sp = cacheSpot{at: at, scope: p.scope, ok: true, hits: sp.hits[:0]}
}
