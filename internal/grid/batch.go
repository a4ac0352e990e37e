package grid

import (
	"math"
)

// batchCells is how many cells a query lists before it warms and reads
// them: the whole of rings up to 8 (ring k has 8k cells), on the stack.
const batchCells = 64

// batch is the cells a query will read, listed before any is read, so that
// their entries' misses overlap (decision 0380).
//
// Listing reads no cell: a cell is listed by its occupancy bit and its gap
// from p against the grid's largest radius; its own bound (c.maxR2, in the
// cell's header, a miss of its own) is tested when the batch is read.
type batch struct {
	n  int
	cs [batchCells]*cell
	d2 [batchCells]float32 // the cell's squared 2D gap from p
}

// add lists cell (cx, cy) if it is occupied and within reach of p (reach
// is a squared distance), and reports whether the batch is full.
func (b *batch) add(g *Grid, p Vec, cx, cy int, reach float32) bool {
	c := g.occupant(cx, cy)
	if c == nil {
		return false
	}
	return b.addAt(g, p, c, cx, g.gap(p.Y, cy), reach)
}

// addAt is add for the occupied cell c in column cx of a row at gap gy
// from p.
func (b *batch) addAt(g *Grid, p Vec, c *cell, cx int, gy, reach float32) bool {
	gx := g.gap(p.X, cx)
	d2 := gx*gx + gy*gy
	if d2 > reach {
		return false
	}
	b.cs[b.n], b.d2[b.n] = c, d2
	b.n++
	return b.n == batchCells
}

// warm loads one word of every cache line of the listed cells' positions
// and metas and returns a value made of them (see warmRun).
func (b *batch) warm() uint32 {
	var v uint32
	for i, c := range b.cs[:b.n] {
		if b.d2[i] <= c.maxR2 {
			v += warmRun(c, 0, int32(len(c.p)))
		}
	}
	return v
}

// flush warms the listed cells, appends their entities covering p within
// bound to dst, sums them up in a, and empties the batch.
func (b *batch) flush(p Vec, bound float32, dst []Hit, a *found) []Hit {
	if b.n == 0 {
		return dst
	}
	a.warm += b.warm()
	n := len(dst)
	for i, c := range b.cs[:b.n] {
		if b.d2[i] > c.maxR2 {
			continue
		}
		dst = cover(c, p, bound, dst)
	}
	b.n = 0
	w, lo, hi := a.w, a.lo, a.hi
	for i := n; i < len(dst); i++ {
		bits := math.Float32bits(dst[i].Dist2)
		w += uint64(dst[i].Weight)
		lo, hi = min(lo, bits), max(hi, bits)
	}
	a.w, a.lo, a.hi = w, lo, hi
	return dst
}

// warmMark is compared with the warm loads' sum, so that the compiler keeps
// them: whatever the sum, the branch taken on it changes nothing.
const warmMark = 0x9e3779b9
