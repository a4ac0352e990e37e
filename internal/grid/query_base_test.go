package grid

import (
	"math"
)

// The queries as they were before decision 0380 (main 1763bdc), kept for
// BenchmarkCrowded's side-by-side baseline (Nearest's; Covering was not changed):
// each cell scanned as the rings reach it, no warm pass.

func (g *Grid) baseNearest(p Vec, limit int, dst []Hit) []Hit {
	if g.count == 0 || limit <= 0 {
		return dst
	}
	base, lim := len(dst), uint64(limit)
	cx0, cy0 := g.axis(p.X), g.axis(p.Y)
	a := found{lo: math.Float32bits(inf)}
	bound := inf
	cut := 0
	for k := 0; ; k++ {
		dst = g.baseRing(p, cx0, cy0, k, bound, dst, &a)
		l, more := g.beyond(p, cx0, cy0, k)
		if !more || len(dst)-base == g.count {
			break
		}
		l2 := l * l
		if l2 > g.maxR2 {
			break
		}
		if n := len(dst) - base; a.w >= lim && 2*n >= 3*cut {
			lo, hi := a.span()
			bound, cut = min(bound, cutoff(dst[base:], lim, lo, hi)), max(n, 1)
		}
		if l2 > bound {
			break
		}
	}
	if a.w <= lim {
		return dst
	}
	lo, hi := a.span()
	n := g.choose(dst[base:], lim, a.w, lo, hi)
	return dst[:base+n]
}

func (g *Grid) baseRing(p Vec, cx0, cy0, k int, bound float32, dst []Hit, a *found) []Hit {
	if k == 0 {
		return g.baseScan(p, cx0, cy0, bound, dst, a)
	}
	x0, x1 := max(cx0-k, 0), min(cx0+k, g.side-1)
	for _, cy := range [2]int{cy0 - k, cy0 + k} {
		if cy < 0 || cy >= g.side {
			continue
		}
		for cx := x0; cx <= x1; cx++ {
			dst = g.baseScan(p, cx, cy, bound, dst, a)
		}
	}
	y0, y1 := max(cy0-k+1, 0), min(cy0+k-1, g.side-1)
	for _, cx := range [2]int{cx0 - k, cx0 + k} {
		if cx < 0 || cx >= g.side {
			continue
		}
		for cy := y0; cy <= y1; cy++ {
			dst = g.baseScan(p, cx, cy, bound, dst, a)
		}
	}
	return dst
}

func (g *Grid) baseScan(p Vec, cx, cy int, bound float32, dst []Hit, a *found) []Hit {
	c := g.occupant(cx, cy)
	if c == nil {
		return dst
	}
	gx, gy := g.gap(p.X, cx), g.gap(p.Y, cy)
	if d2 := gx*gx + gy*gy; d2 > c.maxR2 || d2 > bound {
		return dst
	}
	n := len(dst)
	dst = cover(c, p, bound, dst)
	w, lo, hi := a.w, a.lo, a.hi
	for i := n; i < len(dst); i++ {
		b := math.Float32bits(dst[i].Dist2)
		w += uint64(dst[i].Weight)
		lo, hi = min(lo, b), max(hi, b)
	}
	a.w, a.lo, a.hi = w, lo, hi
	return dst
}
