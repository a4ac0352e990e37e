package world

import (
	"math"
	"slices"
	"sort"

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
	ents  []ringEnt // the band: ents[:full] by distance to c, then the others
	full  int       // the band's blips that cover every point within the skin
	de    []float32 // their distances to c, meters, in order (ringWindow)
	pre   []uint64  // pre[i]: the sum of the mixes of ents[:i] (i ≤ full)
	tried bool      // built: with g nil, too few blips at c (no build again within the skin of c in the same grid)
}

// ringEnt is a blip of a ring's band.
type ringEnt struct {
	at       grid.Vec
	r2       float32 // its squared radius in the grid (+Inf without a draw distance)
	key, rev uint32
	ord      uint32 // its place in the order the ring was built in (grid.Nearest's, then the edge blips)
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
	*r = blipRing{ver: g.Version(), c: c, ents: r.ents[:0], de: r.de[:0], pre: r.pre[:0], tried: true}
	pr.ringDe = pr.ringDe[:0]
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
		r.ents = append(r.ents, ringEnt{at: bs.at, r2: r2, key: h.Key, rev: h.Rev, ord: uint32(len(r.ents)), mix: sum(h.Key, h.Rev)})
		if full {
			pr.ringDe = append(pr.ringDe, math.Float32bits(float32(math.Sqrt(float64(h.Dist2)))))
		} else {
			pr.ringDe = append(pr.ringDe, math.MaxUint32) // after every full one
		}
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
			r.ents = append(r.ents, ringEnt{at: b.at, r2: dd * dd, key: b.slot, rev: b.rev, ord: uint32(len(r.ents)), mix: sum(b.slot, b.rev)})
			pr.ringDe = append(pr.ringDe, math.MaxUint32)
		}
	}
	w.sortRing(r)
	r.g = g
}

// sortRing puts r's band in ringWindow's order: the blips that cover every
// point within the skin (those whose distance pr.ringDe holds, as float
// bits, in the order of r.ents) by their distance to c, then the others,
// each in the order they were added; it sets r.full, r.de and r.pre.
func (w *World) sortRing(r *blipRing) {
	pr := &w.prims
	keys := pr.ringKeys[:0]
	for i, d := range pr.ringDe {
		keys = append(keys, uint64(d)<<32|uint64(i)) // non-negative floats order as their bits
	}
	slices.Sort(keys)
	pr.ringKeys = keys
	sorted := append(pr.ringSorted[:0], r.ents...)
	pr.ringSorted = sorted
	r.full, r.pre = 0, append(r.pre, 0)
	for j, k := range keys {
		e := sorted[uint32(k)]
		r.ents[j] = e
		if d := uint32(k >> 32); d != math.MaxUint32 {
			r.full++
			r.de = append(r.de, math.Float32frombits(d))
			r.pre = append(r.pre, r.pre[j]+e.mix)
		}
	}
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
	// The window (decision 0394): a blip of the band that covers the whole
	// skin and is nearer to c than wl is in the answer at from and in for
	// sure at to, one farther than wh in neither (each point is off c by
	// df0 and dt0): those are counted from r.pre, not read; the blips
	// between, and those that do not cover the whole skin, are told one by
	// one, as they were all before.
	pad := ringPad(r.b)
	wl := min(dOld-df0, lo-dt0) - pad
	wh := max(dOld+df0, hi+dt0) + pad
	i0, i1 := r.window(wl, wh)
	pr.ringRead += uint64(i1 - i0 + len(r.ents) - r.full)
	s.WasN, s.WasWeight, s.WasSum, s.Shell = r.n+i0, uint64(r.n+i0), r.sum+r.pre[i0], false
	hs, ev, was, sureIn := pr.ringHits[:0], pr.ringEv[:0], pr.ringWas[:0], pr.ringSure[:0]
	sure := i0 // covering to nearer than lo
	for _, part := range [2][2]int{{i0, i1}, {r.full, len(r.ents)}} {
		for i := part[0]; i < part[1]; i++ {
			e := &r.ents[i]
			df, dt := grid.Dist2(e.at, from), grid.Dist2(e.at, to)
			in := df <= e.r2 && uint64(math.Float32bits(df))<<32|uint64(e.key) < cut
			if in {
				s.WasN++
				s.WasWeight++
				s.WasSum += e.mix
			}
			switch {
			case dt > e.r2 || dt > hi2:
				if in { // leaves
					ev, was = append(ev, int32(i)), append(was, true)
				}
				continue
			case dt < lo2:
				sure++
				if !in {
					sureIn = append(sureIn, int32(i)) // entered
				}
				continue // stays, or entered
			}
			hs = append(hs, grid.Hit{Key: e.key, Rev: uint32(len(ev)), Dist2: dt, Weight: 1}) // Rev: the place in ev until chosen
			ev, was = append(ev, int32(i)), append(was, in)
		}
	}
	pr.ringHits, pr.ringEv, pr.ringWas, pr.ringSure = hs, ev, was, sureIn
	need -= sure
	if need < 0 || len(hs) <= need {
		return false // the cut at to is not between lo and hi
	}
	// In the order the band was built in, as the scan of all of it met
	// them: the selection, the entries and the leaves come out the same.
	sortByOrd(r, sureIn)
	sortHitsByOrd(r, hs, ev)
	n := grid.SelectNearest(hs, need)
	out := uint64(grid.AllCut)
	for _, h := range hs[n:] {
		out = min(out, h.Rank())
	}
	if !r.within(math.Sqrt(float64(cutDist2(out))), dt0) {
		return false
	}
	for _, i := range sureIn {
		e := &r.ents[i]
		s.Enter = append(s.Enter, grid.Hit{Key: e.key, Rev: e.rev, Dist2: grid.Dist2(e.at, to), Weight: 1})
	}
	for _, h := range hs[:n] {
		k := h.Rev
		if was[k] {
			was[k] = false // stays
			continue
		}
		s.Enter = append(s.Enter, grid.Hit{Key: h.Key, Rev: r.ents[ev[k]].rev, Dist2: h.Dist2, Weight: 1})
	}
	left := sureIn[:0]
	for k, in := range was {
		if in {
			left = append(left, ev[k])
		}
	}
	sortByOrd(r, left)
	for _, i := range left {
		e := &r.ents[i]
		s.Leave = append(s.Leave, grid.Hit{Key: e.key, Rev: e.rev, Dist2: grid.Dist2(e.at, to), Weight: 1})
	}
	pr.ringSure = left
	s.Cut = out
	pr.ringBand += uint64(len(r.ents))
	if len(s.Enter)+len(s.Leave) == 0 {
		pr.ringSame++
	}
	pr.stepWants(pr.blipHot.v)
	return true
}

// window returns the part r.ents[i0:i1] of the blips covering the whole
// skin that are no nearer to c than wl and no farther than wh.
func (r *blipRing) window(wl, wh float64) (i0, i1 int) {
	i0 = sort.Search(r.full, func(i int) bool { return float64(r.de[i]) >= wl })
	i1 = i0 + sort.Search(r.full-i0, func(i int) bool { return float64(r.de[i0+i]) > wh })
	return i0, i1
}

// sortByOrd sorts the band places is by the order the band was built in
// (an insertion sort: a step's few).
func sortByOrd(r *blipRing, is []int32) {
	for j := 1; j < len(is); j++ {
		for k := j; k > 0 && r.ents[is[k]].ord < r.ents[is[k-1]].ord; k-- {
			is[k], is[k-1] = is[k-1], is[k]
		}
	}
}

// sortHitsByOrd sorts a step's candidates hs (Rev: their place in ev, the
// band places) by the order the band was built in.
func sortHitsByOrd(r *blipRing, hs []grid.Hit, ev []int32) {
	ord := func(h grid.Hit) uint32 { return r.ents[ev[h.Rev]].ord }
	for j := 1; j < len(hs); j++ {
		for k := j; k > 0 && ord(hs[k]) < ord(hs[k-1]); k-- {
			hs[k], hs[k-1] = hs[k-1], hs[k]
		}
	}
}

// within reports whether an answer cut at distance d (meters) from a point
// off r's center by off holds r's whole inner part and no blip past b.
func (r *blipRing) within(d, off float64) bool {
	return d > r.a+off+ringPad(d) && d < r.b-off-ringPad(r.b)
}
