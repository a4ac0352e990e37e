package grid

import (
	"math"
	"math/bits"
)

// held is the answer a cut step told last (decision 0265): its point, its
// cut, its count, weight and fingerprint, and the grid's version when it was
// told. The answer is a function of the entities within the cut's distance
// of its point; while no cell in that reach changed since (the box caches'
// change stamps), those totals are the ones a scan of the grid would count
// now, and the next step from that point with that cut needs no scan of the
// entities nearer than its band that stay in both answers.
type held struct {
	g      *Grid
	at     Vec
	cut    uint64
	n      int
	w, sum uint64
	ver    uint64
	shift  float32 // how far the cut's distance moved at that step, meters (out > 0; +Inf: unknown)
	ok     bool
}

// The narrow band of a held step (Grid.scanDiff) is where the new cut is
// looked for: around where the last step's move of the cut predicts it
// (the old cut's distance plus narrowLead of that move: walks are straight
// and a density changes smoothly, so a cut moving out of a hot spot moves
// by about as much at the next step), narrowPad plus narrowSlope of that
// move on either side (what that move changes by from step to step:
// counted in issue 4's hot spots, ~0.5 m median, ~2 m at the 90th
// percentile, ~4 m at the 99th, the more as the cut moves the more).
// Measured in issue 4's benchmark (docs/benchmarks/world9-obj.md): a
// band of ~230 hits in the hot spots (~400 with the old 2·move + 1 m,
// at least 4 m, around the old cut) and ~100 uniform (~150), the cut
// missed and the step scanned again in ~0.5 % of the steps (~0.2 %).
const (
	narrowLead  = 0.75
	narrowPad   = 3    // meters
	narrowSlope = 0.25 // of the last move
)

// band returns the narrow band's center, as an offset from the old cut's
// distance, and half-width, in meters, from the move of the cut at h's
// step (+Inf when unknown: no narrowing).
func (h *held) band() (off, half float64) {
	s := float64(h.shift)
	return narrowLead * s, narrowPad + narrowSlope*math.Abs(s)
}

// heldFor reports whether h is the answer at from with cut on g and still
// holds: no cell within the cut's distance of from changed since it was
// told. Only cut answers are held (an uncut one is a shell's).
func (g *Grid) heldFor(h *held, from Vec, limit int, cut uint64) bool {
	if !h.ok || h.g != g || h.at != from || h.cut != cut || limit == NoLimit || cut == AllCut || cut == 0 {
		return false
	}
	// The old answer's entities are within √(cut's distance bits) of from
	// (their Rank is below cut); their cells are within that much in 2D.
	d := float32(math.Sqrt(float64(math.Float32frombits(uint32(cut >> 32)))))
	r := d*(1+relSlack) + absSlack + slack
	return g.unchanged(h.ver, g.axis(from.X-r), g.axis(from.Y-r), g.axis(from.X+r), g.axis(from.Y+r))
}

// hold records the answer s told at to in h (the totals of the old answer
// less what left, plus what entered), and how far its cut's distance moved
// from the old one's, cut.
func (g *Grid) hold(h *held, to Vec, cut uint64, s *Step) {
	shift := float32(math.Inf(1)) // unknown: the next band is the whole one
	if cut != 0 && cut != AllCut {
		shift = float32(cutDist(s.Cut) - cutDist(cut))
	}
	*h = held{g: g, at: to, cut: s.Cut, n: s.N, w: s.Weight, sum: s.Sum, ver: g.ver, shift: shift, ok: true}
}

// cutDist is the distance of a cut (neither 0 nor AllCut).
func cutDist(cut uint64) float64 {
	return math.Sqrt(float64(math.Float32frombits(uint32((cut - 1) >> 32))))
}

// heldSkips reports whether near, for a held step, would leave out every
// entity of cell c (at cx, cy; gt and gf its squared 2D gaps from to and
// from) by its bounds alone: the cell is wholly nearer than the band and
// within the old cut's distance of from, and every radius covers both points
// from anywhere in it (each entity in both answers); or it is wholly beyond
// the band and the old cut's distance of from (none in either). The bounds
// are padded for float32 rounding as the shell's are.
func (g *Grid) heldSkips(c *cell, cx, cy int, from, to Vec, gt, gf, lo2, band2, cutD2 float32) bool {
	return skips(c, gt, gf, g.far2(c, cx, cy, to), g.far2(c, cx, cy, from), lo2, band2, cutD2)
}

// skips is heldSkips' test of a part of cell c at squared 2D gaps gt, gf
// from to and from, and squared 3D distances at most ft, ff.
func skips(c *cell, gt, gf, ft, ff, lo2, band2, cutD2 float32) bool {
	if gt > band2 && gf > cutD2*(1+2*relSlack) {
		return true
	}
	return ft < lo2 && ff < cutD2 && max(ft, ff) <= c.minR2
}

// heldRuns appends to runs the parts of cell c at (cx, cy) (the scan's
// cell ci) that near reads for a held step: in an ordered grid, the runs
// of the sub-squares heldSkips' test does not leave out, adjacent runs
// merged; else (and for an edge cell, whose squares reach beyond the
// bounds, or one of fewer than subMin entities) the whole cell.
func (g *Grid) heldRuns(runs []scanRun, ci int32, c *cell, cx, cy int, from, to Vec, lo2, band2, cutD2 float32) []scanRun {
	var e *[subN]int32
	if g.subs != nil {
		e = g.subsAt(cx, cy)
	}
	if e == nil || len(c.p) < subMin || cx == 0 || cy == 0 || cx == g.side-1 || cy == g.side-1 {
		return append(runs, scanRun{ci: ci, start: 0, end: int32(len(c.p))})
	}
	read := ^g.subSkips(c, cx, cy, from, to, lo2, band2, cutD2) & (1<<subN - 1)
	for read != 0 {
		q0 := bits.TrailingZeros32(read)
		q1 := q0 + bits.TrailingZeros32(^(read >> q0)) // the first square skipped after q0 (or subN)
		read &^= 1<<q1 - 1
		start, end := int32(0), e[q1-1]
		if q0 > 0 {
			start = e[q0-1]
		}
		if start == end {
			continue // empty squares
		}
		if n := len(runs); n > 0 && runs[n-1].ci == ci && runs[n-1].end == start {
			runs[n-1].end = end // only empty squares skipped between
		} else {
			runs = append(runs, scanRun{ci: ci, start: start, end: end})
		}
	}
	return runs
}

// subSkips returns the sub-squares of cell c at (cx, cy) (an inner cell)
// whose entities heldSkips' test leaves out by the square's bounds: bit q
// for square q. The bounds of a square are its column's (x) and row's (y):
// each is computed once a cell, not once a square (decision 0417), and a
// square's test is a few additions and comparisons on the float bits (the
// values are non-negative, so they order as their bits), without a branch.
// The values are those the square's own bounds give (boxGap, boxFar,
// farPad2), in the same order of operations; they are padded for float32
// rounding as every cell test is.
func (g *Grid) subSkips(c *cell, cx, cy int, from, to Vec, lo2, band2, cutD2 float32) uint32 {
	w := g.size / subSide
	x0, y0 := float32(cx)*g.size-Bound, float32(cy)*g.size-Bound
	// Per column and per row: squared gaps from to and from, squared far
	// bounds from to and from.
	var gxt, gxf, fxt, fxf, gyt, gyf, fyt, fyf [subSide]float32
	for k := range subSide {
		xl, yl := x0+float32(k)*w, y0+float32(k)*w
		a, b := boxGap(to.X, xl, xl+w), boxGap(from.X, xl, xl+w)
		gxt[k], gxf[k] = a*a, b*b
		a, b = boxFar(to.X, xl, xl+w), boxFar(from.X, xl, xl+w)
		fxt[k], fxf[k] = a*a, b*b
		a, b = boxGap(to.Y, yl, yl+w), boxGap(from.Y, yl, yl+w)
		gyt[k], gyf[k] = a*a, b*b
		a, b = boxFar(to.Y, yl, yl+w), boxFar(from.Y, yl, yl+w)
		fyt[k], fyf[k] = a*a, b*b
	}
	fzt, fzf := c.zFar(to.Z), c.zFar(from.Z)
	fzt, fzf = fzt*fzt, fzf*fzf
	bits2 := func(f float32) uint64 { return uint64(math.Float32bits(f)) }
	bb, cfb := bits2(band2), bits2(cutD2*(1+2*relSlack))
	lb, cb, mb := bits2(lo2), bits2(cutD2), bits2(c.minR2)
	var skip uint32
	for j := range subSide {
		for i := range subSide {
			gt, gf := bits2(gxt[i]+gyt[j]), bits2(gxf[i]+gyf[j])
			ft := bits2((fxt[i]+fyt[j]+fzt)*(1+2*relSlack) + absSlack2)
			ff := bits2((fxf[i]+fyf[j]+fzf)*(1+2*relSlack) + absSlack2)
			// skips: beyond the band and the old cut (gt > band2 && gf >
			// cutD2·(1+2·relSlack)), or wholly in both answers (ft < lo2
			// && ff < cutD2 && max(ft, ff) ≤ minR2).
			beyond := (bb - gt) >> 63 & ((cfb - gf) >> 63)
			inBoth := (ft - lb) >> 63 & ((ff - cb) >> 63) & ((mb-max(ft, ff))>>63 ^ 1)
			skip |= uint32(beyond|inBoth) << (j*subSide + i)
		}
	}
	return skip
}

// subMin is the fewest entities of a cell for which heldRuns tests its
// sub-squares: with fewer (a uniform world's 64 m cells hold ~64 objects,
// a cache line a square), the tests cost more than the reads they skip
// (BenchmarkHeldStep; measured again with subSkips' cheaper test in
// issue 4's tick: decision 0416).
const subMin = 256

// subsAt returns the run ends of cell (cx, cy), nil when its block has
// none (not ordered).
func (g *Grid) subsAt(cx, cy int) *[subN]int32 {
	bi, in := g.blockOf(cx, cy)
	se := g.subs[bi]
	if se == nil {
		return nil
	}
	return &se[in]
}

// boxGap is a lower bound of the distance from v to [lo, hi].
func boxGap(v, lo, hi float32) float32 {
	return max(lo-v-slack, v-hi-slack, 0)
}

// boxFar is an upper bound of the distance from v to any point of [lo, hi].
func boxFar(v, lo, hi float32) float32 {
	return max(v-lo, hi-v) + slack
}

// far2 is an upper bound of the squared 3D distance from p to every entity
// of cell c at (cx, cy), padded for float32 rounding; +Inf for an edge cell
// (it holds the positions beyond the bounds).
func (g *Grid) far2(c *cell, cx, cy int, p Vec) float32 {
	if cx == 0 || cy == 0 || cx == g.side-1 || cy == g.side-1 {
		return inf
	}
	x0, y0 := float32(cx)*g.size-Bound, float32(cy)*g.size-Bound
	return farPad2(boxFar(p.X, x0, x0+g.size), boxFar(p.Y, y0, y0+g.size), c.zFar(p.Z))
}

// zFar is an upper bound of the vertical distance from z to any entity of c.
func (c *cell) zFar(z float32) float32 {
	return max(c.zhi-z, z-c.zlo, 0) + slack
}

// farPad2 is the squared 3D distance of the per-axis bounds fx, fy, fz,
// padded for float32 rounding.
func farPad2(fx, fy, fz float32) float32 {
	return (fx*fx+fy*fy+fz*fz)*(1+2*relSlack) + absSlack2
}
