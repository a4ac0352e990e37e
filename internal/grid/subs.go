package grid

// Sub-squares (decision 0265): once a grid has compacted, each cell keeps
// its entities ordered by the subSide×subSide squares of the cell they lie
// in, with the end of each square's run, so that a held step reads only
// the squares its bounds cannot skip. Insertions and removals keep the
// order by moving at most one entity per later square (a bucketed array);
// grids that never compacted keep the plain swap-remove.

// subSide is the number of sub-squares on a side of a cell (16 m squares
// in the object grid's 64 m cells).
const subSide = 4

// subN is the number of sub-squares of a cell.
const subN = subSide * subSide

// subEnds is, per cell of a block, the end (exclusive) of each sub-square's
// run of entities: square q holds entities ends[q-1] (0 for q = 0) up to
// ends[q], and ends[subN-1] is the cell's length.
type subEnds [blockSide * blockSide][subN]int32

// ends returns the run ends of the cell with linear index c, nil when the
// grid is not ordered.
func (g *Grid) ends(c int) *[subN]int32 {
	if g.subs == nil {
		return nil
	}
	bi, in := g.blockOf(c%g.side, c/g.side)
	se := g.subs[bi]
	if se == nil {
		se = new(subEnds)
		g.subs[bi] = se
	}
	return &se[in]
}

// subOf returns the sub-square of cell (cx, cy) that (x, y) lies in;
// positions beyond an edge cell's extent go to its border squares.
func (g *Grid) subOf(cx, cy int, x, y float32) int {
	sx := int(((x+Bound)*g.inv - float32(cx)) * subSide)
	sy := int(((y+Bound)*g.inv - float32(cy)) * subSide)
	return min(max(sy, 0), subSide-1)*subSide + min(max(sx, 0), subSide-1)
}

// put adds the entity to cell c (linear index ci) and sets its slot: at the
// end, or in an ordered grid at the end of its sub-square's run, the first
// entity of each later non-empty square moved to that square's end.
func (g *Grid) put(ci int, c *cell, p pos, m meta) {
	c.p, c.m = append(c.p, p), append(c.m, m)
	hole := int32(len(c.p) - 1)
	if hole == 0 {
		g.occupy(ci, true)
	}
	if e := g.ends(ci); e != nil {
		q := g.subOf(ci%g.side, ci/g.side, p.x, p.y)
		for j := subN - 1; j > q; j-- {
			start := e[j-1]
			if start < e[j] {
				g.shift(c, start, hole)
			}
			hole = start
			e[j]++
		}
		e[q]++
		c.p[hole], c.m[hole] = p, m
	}
	g.slots[m.h] = slot{cell: int32(ci), idx: hole}
}

// take removes the entity at index i of cell c (linear index ci) and
// returns it: swap-removed, or in an ordered grid replaced by the last
// entity of its square's run, whose place the last of each later square
// takes.
func (g *Grid) take(ci int, c *cell, i int32) (pos, meta) {
	p, m := c.p[i], c.m[i]
	last := int32(len(c.p) - 1)
	if e := g.ends(ci); e != nil {
		q := 0
		for i >= e[q] {
			q++
		}
		hole := i
		for j := q; j < subN; j++ {
			if end := e[j] - 1; end != hole {
				g.shift(c, end, hole)
				hole = end
			}
			e[j]--
		}
	} else if i != last {
		g.shift(c, last, i)
	}
	c.p, c.m = c.p[:last], c.m[:last]
	if last == 0 {
		g.occupy(ci, false)
	}
	return p, m
}

// shift moves the entity at index from of cell c to index to, fixing its
// slot.
func (g *Grid) shift(c *cell, from, to int32) {
	c.p[to], c.m[to] = c.p[from], c.m[from]
	g.slots[c.m[to].h].idx = to
}

// order sorts the entities of cell c at (cx, cy), laid out at ps and ms
// (Compact's new arrays, as long as the cell), by sub-square, sets the
// runs' ends in e and the entities' slots.
func (g *Grid) order(c *cell, cx, cy int, e *[subN]int32, ps []pos, ms []meta) {
	var qs [subN]int32
	for i := range c.p {
		qs[g.subOf(cx, cy, c.p[i].x, c.p[i].y)]++
	}
	var at [subN]int32 // where the next entity of each square goes
	var n int32
	for q := range subN {
		at[q] = n
		n += qs[q]
		e[q] = n
	}
	for i := range c.p {
		q := g.subOf(cx, cy, c.p[i].x, c.p[i].y)
		ps[at[q]], ms[at[q]] = c.p[i], c.m[i]
		g.slots[c.m[i].h].idx = at[q]
		at[q]++
	}
}
