package world

import (
	"math"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
)

// A blip view's step told from a ring (docs/decisions/0270-blip-rings.md).
// A moving player's blip answer (the grid's nearest 100) changes only at
// its cut, about 450 m out in a map full of blips; grid.Diff re-reads every
// blip within the cut to recount the old answer (about 150 blips a step).
// A ring, built at a center c, keeps what a step near c needs:
//
//   - the inner part: the nearest 100 − blipRingBand blips covering c (a:
//     the farthest of them) that cover every point within blipRingSkin of
//     c, as their count and fingerprint only;
//   - the band: every other blip that covers some point within the skin and
//     is nearer to c than b (the farthest of the nearest 100 +
//     blipRingBand), with its position, squared radius, key and rev.
//
// For from and to within the skin of c, in the grid at the version the ring
// was built at, an answer whose cut is farther than a plus the point's
// distance to c and nearer than b minus it holds the whole inner part and
// no blip past b: the step is then the band's, as grid.Diff would tell it
// (the same counts, fingerprint, entries, leaves and cut). Anything else
// (the grid changed, a point past the skin, a cut outside the band) is
// told by grid.Diff.

const (
	// blipRingSkin (meters) is how far from its center a ring serves: a
	// ring built ahead of the step (ringCenter) serves a runner (7 m a
	// second) about 17 slow passes, 2.7 builds in the benchmark's tick of
	// 50 blip views (40 m: 11 passes, 4.2 builds; decision 0394).
	blipRingSkin = 60
	// blipRingBand is how many blips a ring keeps on each side of the
	// limit: at the benchmark's density (10,000 blips on 8 km × 8 km) about
	// 75 m of radius each side of the cut, past the skin's 60, so that
	// almost every step's cut stays in the band (48.85 ring steps of 50
	// views a tick; 32 blips: 48.44).
	blipRingBand = 36
)

// blipRing is a player's ring of the blip grid (see above).
type blipRing struct {
	g     *grid.Grid // nil: none
	ver   uint64     // g's version when built
	c     grid.Vec
	a, b  float64 // the inner part's and the band's outer radius, meters
	n     int     // the inner part: count and fingerprint
	sum   uint64
	ents  []ringEnt
	tried bool // built: with g nil, too few blips at c (no build again within the skin of c in the same grid)
}

// ringEnt is a blip of a ring's band.
type ringEnt struct {
	at       grid.Vec
	r2       float32 // its squared radius in the grid (+Inf without a draw distance)
	key, rev uint32
	mix      uint64 // the sum of key and rev, as the ring was built (the grid's version: the same while it serves)
}

// blipSlot is what a ring reads of a blip of the grid, by its key (dense,
// beside blipHot): a map lookup and a Blip per hit were most of a build.
type blipSlot struct {
	at grid.Vec
	dd float32 // draw distance, 0 for none
}

// serves reports whether r was built in g as it is now and p is within its
// skin.
func (r *blipRing) serves(g *grid.Grid, p grid.Vec) bool {
	return r.g == g && r.ver == g.Version() && grid.Dist2(r.c, p) <= blipRingSkin*blipRingSkin
}

// ringPad is the float32 rounding's room at distance d (meters), as the
// box caches pad (decision 0190).
func ringPad(d float64) float64 { return 0.01 + 2e-5*d }

// blipDiff is stepDiff for the blip grid: from p's ring when it serves the
// step (built at p's point when none does), else by grid.Diff.
func (w *World) blipDiff(st *primStep, g *grid.Grid, p *Player, limit int, sum func(key, rev uint32) uint64) bool {
	pr := &w.prims
	r := &p.prims.blipRing
	if !r.serves(g, p.pos) || !r.serves(g, st.at) {
		w.buildBlipRing(r, g, p.scope, ringCenter(st.at, p.pos), sum)
	}
	if r.g != nil && r.serves(g, st.at) && w.ringDiff(r, st.at, p.pos, limit, st.cut) {
		pr.ringSteps++
		return true
	}
	return w.stepDiff(st, g, p.pos, limit, sum, pr.blipHot.v)
}

// ringCenter returns where a ring for a step from from to to is built: on
// ahead of to along the step, as far as from stays within the skin (a
// meter to spare), so that a player who keeps their direction crosses the
// whole ring before the next build, not half of it.
func ringCenter(from, to grid.Vec) grid.Vec {
	dx, dy, dz := to.X-from.X, to.Y-from.Y, to.Z-from.Z
	l := float32(math.Sqrt(float64(grid.Dist2(from, to))))
	shift := blipRingSkin - 1 - l
	if l == 0 || shift <= 0 {
		return to
	}
	k := shift / l
	return grid.Vec{X: to.X + dx*k, Y: to.Y + dy*k, Z: to.Z + dz*k}
}

// buildBlipRing builds r at c in g (scope sc), or leaves it empty (r.g nil)
// when the grid holds fewer blips covering c than the limit and the band.
func (w *World) buildBlipRing(r *blipRing, g *grid.Grid, sc grid.Scope, c grid.Vec, sum func(key, rev uint32) uint64) {
	pr := &w.prims
	if r.tried && r.g == nil && r.ver == g.Version() && grid.Dist2(r.c, c) <= blipRingSkin*blipRingSkin {
		return // tried near here: too few blips
	}
	limit := stream.Blips.Limit()
	*r = blipRing{ver: g.Version(), c: c, ents: r.ents[:0], tried: true}
	hs := g.Nearest(c, limit+blipRingBand, pr.ringHits[:0])
	pr.ringHits = hs
	if len(hs) < limit+blipRingBand {
		return
	}
	pr.ringBuilds++
	// hs[:inner] the nearest (a selection, not a sort): a bounds them; b
	// bounds every hit, and every blip covering c nearer than b is a hit.
	inner := grid.SelectNearest(hs, limit-blipRingBand)
	var a2, b2 float32
	for i := range hs {
		if i < inner {
			a2 = max(a2, hs[i].Dist2)
		}
		b2 = max(b2, hs[i].Dist2)
	}
	r.a, r.b = math.Sqrt(float64(a2)), math.Sqrt(float64(b2))
	for i, h := range hs {
		bs := &pr.blipSlots[h.Key]
		r2 := float32(math.Inf(1))
		full := true
		if bs.dd > 0 {
			r2 = bs.dd * bs.dd
			full = math.Sqrt(float64(h.Dist2))+blipRingSkin+ringPad(float64(bs.dd)) <= float64(bs.dd)
		}
		if i < inner && full {
			r.n++
			r.sum += sum(h.Key, h.Rev)
			continue
		}
		r.ents = append(r.ents, ringEnt{at: bs.at, r2: r2, key: h.Key, rev: h.Rev, mix: sum(h.Key, h.Rev)})
	}
	// Blips with a draw distance that do not cover c but may cover a point
	// within the skin (blipEdgeG's radii reach that far), nearer than b.
	if eg := pr.blipEdgeG.Lookup(sc); eg != nil {
		pr.holdHits = eg.Covering(c, pr.holdHits[:0])
		for _, e := range pr.holdHits {
			if math.Sqrt(float64(e.Dist2)) >= r.b {
				continue // past b: told before the blip is read
			}
			b := pr.blips[e.Key]
			dd := b.params.DrawDistance
			if e.Dist2 <= dd*dd {
				continue // covering c (a hit above)
			}
			r.ents = append(r.ents, ringEnt{at: b.at, r2: dd * dd, key: b.slot, rev: b.rev, mix: sum(b.slot, b.rev)})
		}
	}
	r.g = g
}

// ringDiff computes into pr.step, from r's band, the change of the blip
// grid's answer of limit from from to to (within r's skin; the answer at
// from described by cut), with pr.hide and pr.show as stepDiff gives them.
// It reports false when the ring cannot tell it (nothing is then used).
func (w *World) ringDiff(r *blipRing, from, to grid.Vec, limit int, cut uint64) bool {
	need := limit - r.n
	if cut == grid.AllCut || cut == 0 || need < 1 {
		return false
	}
	df0 := math.Sqrt(float64(grid.Dist2(r.c, from)))
	dt0 := math.Sqrt(float64(grid.Dist2(r.c, to)))
	dOld := math.Sqrt(float64(cutDist2(cut)))
	if !r.within(dOld, df0) {
		return false // the old answer may miss inner blips or hold some past b
	}
	// The cut at to is within the points' distance (and a meter, as
	// grid.Diff's band) of the cut at from: blips nearer than that are in
	// for sure, farther ones out; the selection is among the few between.
	delta := math.Sqrt(float64(grid.Dist2(from, to)))
	lo := max(dOld-delta-ringPad(dOld), 0)
	hi := dOld + delta + 1 + ringPad(dOld)
	lo2, hi2 := float32(lo*lo), float32(hi*hi)
	pr := &w.prims
	s := &pr.step
	s.Enter, s.Leave = s.Enter[:0], s.Leave[:0]
	s.WasN, s.WasWeight, s.WasSum, s.Shell = r.n, uint64(r.n), r.sum, false
	hs, was := pr.ringHits[:0], pr.ringWas[:0]
	sure := 0 // covering to nearer than lo
	for i := range r.ents {
		e := &r.ents[i]
		df, dt := grid.Dist2(e.at, from), grid.Dist2(e.at, to)
		in := df <= e.r2 && uint64(math.Float32bits(df))<<32|uint64(e.key) < cut
		was = append(was, in)
		if in {
			s.WasN++
			s.WasWeight++
			s.WasSum += e.mix
		}
		switch {
		case dt > e.r2 || dt > hi2:
			continue
		case dt < lo2:
			sure++
			if !in {
				s.Enter = append(s.Enter, grid.Hit{Key: e.key, Rev: e.rev, Dist2: dt, Weight: 1})
			}
			was[i] = false // stays, or entered
			continue
		}
		hs = append(hs, grid.Hit{Key: e.key, Rev: uint32(i), Dist2: dt, Weight: 1}) // Rev: the band's index until chosen
	}
	pr.ringHits, pr.ringWas = hs, was
	need -= sure
	if need < 0 || len(hs) <= need {
		return false // the cut at to is not between lo and hi
	}
	n := grid.SelectNearest(hs, need)
	out := uint64(grid.AllCut)
	for _, h := range hs[n:] {
		out = min(out, h.Rank())
	}
	if !r.within(math.Sqrt(float64(cutDist2(out))), dt0) {
		return false
	}
	for _, h := range hs[:n] {
		i := h.Rev
		if was[i] {
			was[i] = false // stays
			continue
		}
		s.Enter = append(s.Enter, grid.Hit{Key: h.Key, Rev: r.ents[i].rev, Dist2: h.Dist2, Weight: 1})
	}
	for i, in := range was {
		if in {
			e := &r.ents[i]
			s.Leave = append(s.Leave, grid.Hit{Key: e.key, Rev: e.rev, Dist2: grid.Dist2(e.at, to), Weight: 1})
		}
	}
	s.Cut = out
	if len(s.Enter)+len(s.Leave) == 0 {
		pr.ringSame++
	}
	pr.stepWants(pr.blipHot.v)
	return true
}

// within reports whether an answer cut at distance d (meters) from a point
// off r's center by off holds r's whole inner part and no blip past b.
func (r *blipRing) within(d, off float64) bool {
	return d > r.a+off+ringPad(d) && d < r.b-off-ringPad(r.b)
}
