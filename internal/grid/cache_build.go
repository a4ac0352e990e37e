package grid

import (
	"cmp"
	"math"
	"slices"
)

// Bounds of a box build. Every one is conservative by more than the
// rounding of a float32 Dist2 (relative error below 6 × 2⁻²⁴ ≈ 4e-7): a
// point's box is widened by boxSlack meters on every side, squared
// distances by the relative relSlack (and absSlack2 m²), distances by
// relSlack and absSlack m.
const (
	boxSlack  = 0.01
	relSlack  = 1e-5
	absSlack  = 0.01
	absSlack2 = 1e-6
)

// splitBand is the band size past which a box is split (measured:
// docs/benchmarks/stream.md), minSplit the smallest extent (meters) an axis
// is halved from.
const (
	splitBand = 64
	minSplit  = 1
)

// cand is a candidate of a box build.
type cand struct {
	p         pos
	m         meta
	dc        float64 // distance from the box's center
	full      bool    // covers every point of the box
	inherited bool    // in the sure part of a box this one is a part of
}

// bounds is the geometry of a box under construction.
type bounds struct {
	lo, hi [3]float64 // widened by boxSlack
	c      Vec        // center (float32: the point rings are walked from)
	h      float64    // distance from c to the farthest point of the box
}

func boundsOf(b *Box) bounds {
	var bd bounds
	var cc [3]float32
	var h2 float64
	for i := range 3 {
		bd.lo[i] = b.lo[i] - boxSlack
		bd.hi[i] = b.hi[i] + boxSlack
		cc[i] = float32((bd.lo[i] + bd.hi[i]) / 2)
		d := max(float64(cc[i])-bd.lo[i], bd.hi[i]-float64(cc[i]))
		h2 += d * d
	}
	bd.c = Vec{cc[0], cc[1], cc[2]}
	bd.h = math.Sqrt(h2)
	return bd
}

// reach pads a distance bound for rounding.
func reach(d float64) float64 { return d*(1+relSlack) + absSlack }

// build fills the top box b from the grid.
//
// Candidates are the entities that can cover some point of the box and lie
// within rc of its center: once the entities covering the whole box within
// R of the center weigh more than the limit, every point p of the box has
// that weight within R+h of p, so its answer and the first entity the limit
// refuses are within R+h of p and R+2h of the center (h: the box's
// half-diagonal); rc is that, padded. An entity e is sure when it covers the
// whole box and everything that can rank before it at any point of the box
// (within d(e)+2h of the center) weighs at most the limit.
func (c *Cache) build(b *Box) {
	g := c.g
	bd := boundsOf(b)
	c.cand, c.full = c.cand[:0], c.full[:0]
	coverReach := reach(math.Sqrt(float64(g.maxR2)) + bd.h)
	rc := math.Inf(1)
	if g.count > 0 {
		gx, gy := g.axis(bd.c.X), g.axis(bd.c.Y)
		var fullW uint64
		cut := 0
		for ring := 0; ; ring++ {
			fullW = c.gatherRing(&bd, gx, gy, ring, rc, fullW)
			if fullW > c.limit && 2*len(c.full) >= 3*cut {
				rc, cut = min(rc, c.radius(&bd)), max(len(c.full), 1)
			}
			l, more := g.beyond(bd.c, gx, gy, ring)
			if !more || float64(l) > min(coverReach, rc) {
				break
			}
		}
	}
	c.classify(b, &bd, rc)

	// Every cell within reach of the center: a change elsewhere cannot
	// touch a candidate or the bound rc.
	r := float32(min(coverReach, rc) + absSlack)
	b.cx0, b.cx1 = g.axis(bd.c.X-r), g.axis(bd.c.X+r)
	b.cy0, b.cy1 = g.axis(bd.c.Y-r), g.axis(bd.c.Y+r)
	b.built = g.ver
}

// part builds part i of the split box pa from pa's candidates: every entity
// that can be in the answer (or be the first one refused) at a point of
// the part is one of them, and pa's sure part is sure in the part.
func (c *Cache) part(pa *Box, i int) *Box {
	b := &Box{up: pa, g: c.g, top: pa.top, gen: pa.top.gen, lo: pa.lo, hi: pa.hi}
	for ax := range 3 {
		if pa.axes&(1<<ax) != 0 {
			if i&(1<<ax) != 0 {
				b.lo[ax] = pa.mid[ax]
			} else {
				b.hi[ax] = pa.mid[ax]
			}
		}
	}
	bd := boundsOf(b)
	c.cand, c.full = c.cand[:0], c.full[:0]
	var fullW uint64
	for a := pa; a != nil; a = a.up {
		for _, h := range a.sure {
			cl, j := c.g.find(h)
			cd := cand{p: cl.p[j], m: cl.m[j], dc: centerDist(&bd, &cl.p[j]), full: true, inherited: true}
			c.cand, c.full = append(c.cand, cd), append(c.full, cd)
			fullW += uint64(cd.m.weight)
		}
	}
	for j := range pa.band.p {
		e := &pa.band.p[j]
		near, far := boxDist2(&bd, e)
		r2 := float64(e.r2)
		if near*(1-relSlack)-absSlack2 > r2 {
			continue
		}
		cd := cand{p: *e, m: pa.band.m[j], dc: centerDist(&bd, e), full: far*(1+relSlack)+absSlack2 <= r2}
		c.cand = append(c.cand, cd)
		if cd.full {
			c.full = append(c.full, cd)
			fullW += uint64(cd.m.weight)
		}
	}
	rc := math.Inf(1)
	if fullW > c.limit {
		rc = c.radius(&bd)
	}
	c.classify(b, &bd, rc)
	return b
}

// classify sorts the candidates of b (c.cand) into its sure part and band,
// and splits b if its band is large.
func (c *Cache) classify(b *Box, bd *bounds, rc float64) {
	cs := c.cand
	if !math.IsInf(rc, 1) {
		n := 0
		for i := range cs {
			if cs[i].inherited || cs[i].dc <= rc {
				cs[n] = cs[i]
				n++
			}
		}
		cs = cs[:n]
	}
	// cum[i]: the weight of the candidates in distance buckets 0..i, an
	// upper bound of the weight within any distance of bucket i (no sort).
	var far float64
	for i := range cs {
		far = max(far, cs[i].dc)
	}
	width := max(bd.h/16, far/(maxBuckets-2), 1e-3)
	cum := c.weights(cs, width, far)

	b.n, b.sureW, b.sum = 0, 0, 0
	if up := b.up; up != nil {
		b.n, b.sureW, b.sum = up.n, up.sureW, up.sum
	}
	nSure, nBand := 0, 0
	c.bandc = c.bandc[:0]
	for pass := range 2 {
		if pass == 1 {
			b.sure = make([]Handle, 0, nSure)
			b.band.p, b.band.m = make([]pos, 0, nBand), make([]meta, 0, nBand)
		}
		for i := range cs {
			e := &cs[i]
			if e.inherited {
				continue
			}
			sure := false
			if e.full {
				if bound := reach(e.dc+bd.h) + bd.h; bound <= rc {
					sure = cum[bucket(bound, width, len(cum))] <= c.limit
				}
			}
			switch {
			case pass == 0 && sure:
				nSure++
			case pass == 0:
				nBand++
			case sure:
				b.sure = append(b.sure, e.m.h)
				b.sureW += uint64(e.m.weight)
				if c.sum != nil {
					b.sum += c.sum(e.m.key, e.m.rev)
				}
			default:
				c.bandc = append(c.bandc, *e)
			}
		}
	}
	// The band in order of distance from the center: a query's hits come
	// out nearly in order of distance from p, which its selection uses.
	slices.SortFunc(c.bandc, func(a, b cand) int { return cmp.Compare(a.dc, b.dc) })
	for i := range c.bandc {
		b.band.p, b.band.m = append(b.band.p, c.bandc[i].p), append(b.band.m, c.bandc[i].m)
	}
	b.n += len(b.sure)
	b.kids, b.axes, b.kuses = nil, 0, [8]uint8{}
	if len(b.band.p) > splitBand {
		var ext [3]float64
		for ax := range 3 {
			ext[ax] = b.hi[ax] - b.lo[ax]
		}
		longest := max(ext[0], ext[1], ext[2])
		for ax := range 3 {
			if ext[ax] >= minSplit && 2*ext[ax] >= longest {
				b.axes |= 1 << ax
				b.mid[ax] = (b.lo[ax] + b.hi[ax]) / 2
			}
		}
		if b.axes != 0 {
			b.kids = new([8]*Box)
		}
	}
}

func centerDist(bd *bounds, e *pos) float64 {
	dx, dy, dz := float64(e.x)-float64(bd.c.X), float64(e.y)-float64(bd.c.Y), float64(e.z)-float64(bd.c.Z)
	return math.Sqrt(dx*dx + dy*dy + dz*dz)
}

// radius returns rc for the fully covering candidates found so far (which
// weigh more than the limit): the center distance at which their weight
// passes the limit, plus 2h, padded.
func (c *Cache) radius(bd *bounds) float64 {
	var far float64
	for i := range c.full {
		far = max(far, c.full[i].dc)
	}
	width := max(far/(maxBuckets-2), 1e-3)
	cum := c.weights(c.full, width, far)
	for i, w := range cum {
		if w > c.limit {
			// Every candidate of buckets 0..i is nearer than their upper edge.
			return reach(float64(i+1)*width+bd.h) + bd.h
		}
	}
	return math.Inf(1)
}

// bucket returns the bucket of distance d, the last one (of n) for anything
// beyond.
func bucket(d, width float64, n int) int {
	if q := d / width; q < float64(n-1) {
		return int(q)
	}
	return n - 1
}

// maxBuckets bounds the distance buckets of a build.
const maxBuckets = 4096

// weights returns the cumulative weight of cs by distance bucket of the
// given width (cs's distances are at most far): cum[i] is the weight of
// the candidates in buckets 0..i.
func (c *Cache) weights(cs []cand, width, far float64) []uint64 {
	n := min(int(far/width)+2, maxBuckets)
	if cap(c.cum) < n {
		c.cum = make([]uint64, maxBuckets)
	}
	cum := c.cum[:n]
	clear(cum)
	for i := range cs {
		cum[bucket(cs[i].dc, width, n)] += uint64(cs[i].m.weight)
	}
	for i := 1; i < n; i++ {
		cum[i] += cum[i-1]
	}
	return cum
}

// gatherRing adds the candidates of the cells at Chebyshev distance k from
// (gx, gy) within rc of the box's center, and returns the weight of the
// fully covering ones so far.
func (c *Cache) gatherRing(bd *bounds, gx, gy, k int, rc float64, fullW uint64) uint64 {
	g := c.g
	visit := func(cx, cy int) {
		cl := g.peek(cx, cy)
		if cl == nil || len(cl.p) == 0 {
			return
		}
		ax, ay := float64(g.gap(bd.c.X, cx)), float64(g.gap(bd.c.Y, cy))
		d := math.Sqrt(ax*ax + ay*ay)
		if d > rc || d-bd.h > reach(math.Sqrt(float64(cl.maxR2))) {
			return
		}
		for i := range cl.p {
			e := &cl.p[i]
			r2 := float64(e.r2)
			near, far := boxDist2(bd, e)
			if near*(1-relSlack)-absSlack2 > r2 {
				continue // covers no point of the box
			}
			dc := centerDist(bd, e)
			if dc > rc {
				continue
			}
			cd := cand{p: *e, m: cl.m[i], dc: dc, full: far*(1+relSlack)+absSlack2 <= r2}
			c.cand = append(c.cand, cd)
			if cd.full {
				c.full = append(c.full, cd)
				fullW += uint64(cd.m.weight)
			}
		}
	}
	if k == 0 {
		visit(gx, gy)
		return fullW
	}
	x0, x1 := max(gx-k, 0), min(gx+k, g.side-1)
	for _, cy := range [2]int{gy - k, gy + k} {
		if cy >= 0 && cy < g.side {
			for cx := x0; cx <= x1; cx++ {
				visit(cx, cy)
			}
		}
	}
	y0, y1 := max(gy-k+1, 0), min(gy+k-1, g.side-1)
	for _, cx := range [2]int{gx - k, gx + k} {
		if cx >= 0 && cx < g.side {
			for cy := y0; cy <= y1; cy++ {
				visit(cx, cy)
			}
		}
	}
	return fullW
}

// boxDist2 returns the squared distances from e to the nearest and the
// farthest point of the box.
func boxDist2(bd *bounds, e *pos) (near, far float64) {
	for i, v := range [3]float32{e.x, e.y, e.z} {
		x := float64(v)
		lo, hi := bd.lo[i]-x, x-bd.hi[i]
		n := max(lo, hi, 0)
		f := max(x-bd.lo[i], bd.hi[i]-x)
		near += n * n
		far += f * f
	}
	return near, far
}
