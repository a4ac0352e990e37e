package grid

// Quads (decision 0391): in a crowded cell, each sub-square's run is
// ordered by the 2×2 quads of the square too, and the quads' run ends are
// kept, so that a held step reads a square quad by quad (8 m in the object
// grid's 64 m cells) where the square's bounds alone do not skip it. Compact
// orders them (order); an insertion, a removal or a move that changes a
// square's run leaves it in no quad order (put, take, Move: no entity is
// moved to keep them, so an update costs what it did), and the next held
// step that reads the square orders it again (heldRuns, sortQuads). Cells
// of fewer than subMin entities have none (they are read whole).

// quadSide is the number of quads on a side of a cell.
const quadSide = 2 * subSide

// quadSplits are a cell's quads: for each sub-square q whose bit is set in
// clean, at[q][k] is the end of quad k of its run (k < 3; quad 3 ends with
// the run), counted from the run's start. Quad k of a square lies in its
// column k%2 and row k/2.
type quadSplits struct {
	clean uint16
	at    [subN][3]uint16
}

// blockQuads holds the quads of a block's cells.
type blockQuads [blockSide * blockSide]quadSplits

// quadOf returns the sub-square of cell (cx, cy) that (x, y) lies in and
// its quad there: the square is subOf's (the same position scaled by two).
func (g *Grid) quadOf(cx, cy int, x, y float32) (q, k int) {
	fx := int(((x+Bound)*g.inv - float32(cx)) * quadSide)
	fy := int(((y+Bound)*g.inv - float32(cy)) * quadSide)
	fx, fy = min(max(fx, 0), quadSide-1), min(max(fy, 0), quadSide-1)
	return (fy/2)*subSide + fx/2, (fy%2)*2 + fx%2
}

// quadsAt returns the quads of cell (cx, cy), nil when it has none.
func (g *Grid) quadsAt(cx, cy int) *quadSplits {
	if g.quads == nil {
		return nil
	}
	bi, in := g.blockOf(cx, cy)
	if b := g.quads[bi]; b != nil {
		return &b[in]
	}
	return nil
}

// quadsFor returns the quads of cell (cx, cy) of an ordered grid,
// allocating its block's.
func (g *Grid) quadsFor(cx, cy int) *quadSplits {
	if g.quads == nil {
		g.quads = make([]*blockQuads, len(g.blocks))
	}
	bi, in := g.blockOf(cx, cy)
	b := g.quads[bi]
	if b == nil {
		b = new(blockQuads)
		g.quads[bi] = b
	}
	return &b[in]
}

// unorder marks the squares q and after of the cell with linear index ci
// as in no quad order: their runs changed.
func (g *Grid) unorder(ci, q int) {
	if g.quads == nil {
		return
	}
	bi, in := g.blockOf(ci%g.side, ci/g.side)
	if b := g.quads[bi]; b != nil {
		b[in].clean &= 1<<q - 1
	}
}

// setQuads records the quads of cell (cx, cy), whose entities are ordered
// by square and quad, with counts ns of each (square, quad) and the
// squares' run ends e; a cell of fewer than subMin entities gets none.
func (g *Grid) setQuads(cx, cy, n int, ns *[subN * 4]int32, e *[subN]int32) {
	if n < subMin {
		if qs := g.quadsAt(cx, cy); qs != nil {
			qs.clean = 0
		}
		return
	}
	qs := g.quadsFor(cx, cy)
	qs.clean = 0
	start := int32(0)
	for q := range subN {
		if e[q]-start <= 0xFFFF {
			var end int32
			for k := range 3 {
				end += ns[q*4+k]
				qs.at[q][k] = uint16(end)
			}
			qs.clean |= 1 << q
		}
		start = e[q]
	}
}

// sortQuads orders the run start..end of square q of cell c at (cx, cy) by
// quad, in place (each entity swapped at most once into its quad's part,
// its slot fixed), and records its quads in qs. A run too long for the
// ends' 16 bits is left as it is.
func (g *Grid) sortQuads(c *cell, cx, cy, q int, start, end int32, qs *quadSplits) {
	if end-start > 0xFFFF {
		return
	}
	var ns [4]int32
	for i := start; i < end; i++ {
		_, k := g.quadOf(cx, cy, c.p[i].x, c.p[i].y)
		ns[k]++
	}
	var next, stop [4]int32
	at := start
	for k := range 4 {
		next[k] = at
		at += ns[k]
		stop[k] = at
	}
	for k := range 4 {
		for next[k] < stop[k] {
			i := next[k]
			_, j := g.quadOf(cx, cy, c.p[i].x, c.p[i].y)
			if j == k {
				next[k]++
				continue
			}
			o := next[j]
			next[j]++
			c.p[i], c.p[o] = c.p[o], c.p[i]
			c.m[i], c.m[o] = c.m[o], c.m[i]
			g.slots[c.m[i].h].idx = i
			g.slots[c.m[o].h].idx = o
		}
	}
	for k := range 3 {
		qs.at[q][k] = uint16(stop[k] - start)
	}
	qs.clean |= 1 << q
}
