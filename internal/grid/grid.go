// Package grid is the spatial index of the world engine: one uniform 2D grid
// of cells per scope (virtual world, interior) over the world bounds, holding
// entities that each carry their own radius (an object's stream distance, a
// label's draw distance, the server-wide pickup distance, or +Inf for "no
// distance limit").
//
// It answers two questions about a point p, with 3D distances:
//
//   - [Grid.Covering]: every entity whose radius covers p (distance ≤ radius);
//   - [Grid.Nearest]: the nearest of those, up to a weight limit, in the order
//     (distance, key). An entity's weight is what it counts against the limit:
//     1 for a lone entity, 1 + its attached objects for the root of an object
//     chain, so that a chain counts as a whole or not at all.
//
// Entities are addressed by a dense [Handle] (an index into slices; no maps on
// the hot path) and carry the caller's key and rev, returned in hits. Cells
// store the part a query scans (position, squared radius: 16 bytes)
// contiguously, and [Grid.Compact] lays all cells out in row order, which a
// grid of many entities does itself as they are placed (decision 0245). Queries append to a caller-supplied buffer and allocate nothing
// once the buffer has grown. See docs/decisions/0050-streaming-grid.md.
//
// Cells are allocated in blocks of 16×16 on first use, so an empty scope
// costs only its block directory (a few KB). Positions outside the world
// bounds are kept exactly and indexed in the edge cells.
//
// A Grid is not safe for concurrent use: the world goroutine owns it.
package grid

import (
	"fmt"
	"math"
)

// World bounds on x and y (|x|, |y| ≤ Bound): the grid's extent.
const Bound = 6000

// blockSide is the number of cells on a side of an allocation block.
const blockSide = 16

// Vec is a point in world coordinates (meters).
type Vec struct{ X, Y, Z float32 }

// Dist2 is the squared 3D distance between a and b, computed in float32 the
// same way everywhere (queries, tests, callers).
func Dist2(a, b Vec) float32 {
	dx, dy, dz := a.X-b.X, a.Y-b.Y, a.Z-b.Z
	return dx*dx + dy*dy + dz*dz
}

// Handle addresses one entity of one Grid. Handles are dense and reused after
// [Grid.Remove].
type Handle uint32

// pos is the part of an entity a query scans: 16 bytes, contiguous per cell.
type pos struct {
	x, y, z float32
	r2      float32 // squared radius; +Inf for no limit
}

// dists returns e's squared distances to to and to from: a step's filters
// (near, nearHeld, shellStep) test both for every entity they read.
func (e *pos) dists(to, from Vec) (dt, df float32) {
	dx, dy, dz := e.x-to.X, e.y-to.Y, e.z-to.Z
	dt = dx*dx + dy*dy + dz*dz
	dx, dy, dz = e.x-from.X, e.y-from.Y, e.z-from.Z
	return dt, dx*dx + dy*dy + dz*dz
}

// meta is the rest, read only for hits and updates.
type meta struct {
	key    uint32 // the caller's key, returned in hits
	rev    uint32 // the caller's revision, returned in hits
	weight uint32 // what the entity counts against a Nearest limit, ≥ 1
	h      Handle // back-reference, to fix the handle table on a swap-remove
}

// slot is the handle table's entry: where the entity lives.
type slot struct {
	cell int32 // linear cell index; -1 when the handle is free
	idx  int32 // index in the cell's entries
}

// cell holds its entities in two parallel slices (p[i] and m[i] are one
// entity), and bounds of them kept under every change, not narrowed on a
// removal until the cell empties or the grid compacts (64 bytes a cell).
type cell struct {
	p        []pos
	m        []meta
	maxR2    float32 // ≥ every entity's r2
	minR2    float32 // ≤ every entity's r2
	zlo, zhi float32 // every entity's z is in [zlo, zhi]
}

// bound widens the cell's bounds to hold p; the first entity of an empty
// cell sets them.
func (c *cell) bound(p pos) {
	if len(c.p) == 0 {
		c.minR2, c.zlo, c.zhi = p.r2, p.z, p.z
		return
	}
	c.minR2, c.zlo, c.zhi = min(c.minR2, p.r2), min(c.zlo, p.z), max(c.zhi, p.z)
}

type block [blockSide * blockSide]cell

// Grid is the index of one scope. The zero value is not usable: call [New].
type Grid struct {
	// Immutable after New.
	size   float32 // cell side, meters
	inv    float32 // 1 / size
	side   int     // cells per axis
	bside  int     // blocks per axis
	blocks []*block

	// occ holds, per row of cells of each block, which of them hold an
	// entity: bit i of occ[bi*blockSide+r] for cell i of row r of block
	// bi (allocated with the first block), so that a scan of a sparse
	// grid does not read its empty cells (decision 0306).
	occ []uint16

	slots []slot
	free  []Handle
	count int
	maxR2 float32 // ≥ every entity's r2 (reset when the grid empties)

	tmp []Hit // Nearest's scratch: the hits of the boundary bucket

	// Layout: entities placed in a cell (inserted, or moved across cells)
	// since the last Compact, and the Compacts done (see settle).
	placed   int
	compacts int

	// subs holds the sub-squares' run ends of every block's cells, once the
	// grid compacted (subs.go); nil before.
	subs []*subEnds

	// Change stamps, for the boxes of a [Cache]: ver counts every change;
	// bver[b] is ver at the last change in block b, cver[b][i] at the last
	// change in its cell i (allocated with the block's first change); gver
	// is ver at the last change of maxR2 (an entity anywhere may now reach
	// anything).
	ver  uint64
	bver []uint64
	cver []*[blockSide * blockSide]uint64
	gver uint64
}

// New returns an empty grid with square cells of the given side in meters
// (see docs/decisions/0050-streaming-grid.md for the sizes we measured).
func New(cellSize float32) *Grid {
	checkCell(cellSize)
	side := int(math.Ceil(2 * Bound / float64(cellSize)))
	bside := (side + blockSide - 1) / blockSide
	return &Grid{
		size:   cellSize,
		inv:    1 / cellSize,
		side:   side,
		bside:  bside,
		blocks: make([]*block, bside*bside),
		bver:   make([]uint64, bside*bside),
		cver:   make([]*[blockSide * blockSide]uint64, bside*bside),
	}
}

// Version returns the grid's change counter: it grows with every change
// (insert, move, radius, weight, rev, removal) and with nothing else.
func (g *Grid) Version() uint64 { return g.ver }

// touch records a change in the cell with linear index c.
func (g *Grid) touch(c int) {
	g.touchAt(g.blockOf(c%g.side, c/g.side))
}

// blockOf returns the block index of cell (cx, cy) and its index in the
// block.
func (g *Grid) blockOf(cx, cy int) (bi, in int) {
	return (cy/blockSide)*g.bside + cx/blockSide, (cy%blockSide)*blockSide + cx%blockSide
}

// touchAt is touch for the cell at index in of block bi.
func (g *Grid) touchAt(bi, in int) {
	g.ver++
	g.bver[bi] = g.ver
	if g.cver[bi] == nil {
		g.cver[bi] = new([blockSide * blockSide]uint64)
	}
	g.cver[bi][in] = g.ver
}

// CellSize returns the cell side in meters.
func (g *Grid) CellSize() float32 { return g.size }

// Len returns the number of entities in the grid.
func (g *Grid) Len() int { return g.count }

// Insert adds an entity at pos covering radius meters (+Inf for no limit),
// with weight 1 and rev 0, and returns its handle. key is returned in query
// hits.
// A coordinate that is not finite, or a negative or NaN radius, is a caller
// bug and panics.
func (g *Grid) Insert(key uint32, at Vec, radius float32) Handle {
	r2 := checkRadius(radius)
	checkPos(at)
	var h Handle
	if n := len(g.free); n > 0 {
		h = g.free[n-1]
		g.free = g.free[:n-1]
	} else {
		h = Handle(len(g.slots))
		g.slots = append(g.slots, slot{cell: -1})
	}
	g.count++
	g.place(pos{at.X, at.Y, at.Z, r2}, meta{key: key, weight: 1, h: h}, true)
	g.settle()
	return h
}

// Move changes the entity's position.
func (g *Grid) Move(h Handle, to Vec) {
	checkPos(to)
	s := g.slot(h)
	cx, cy := g.axis(to.X), g.axis(to.Y)
	if cy*g.side+cx != int(s.cell) {
		p, m := g.unplace(h)
		p.x, p.y, p.z = to.X, to.Y, to.Z
		g.place(p, m, true)
		g.settle()
		return
	}
	// The same cell: its block and place from the cell coordinates (no
	// division by the grid's side; the block exists, the entity is in it).
	bi, in := g.blockOf(cx, cy)
	cl := &g.blocks[bi][in]
	p := &cl.p[s.idx]
	if g.subs == nil || g.subOf(cx, cy, p.x, p.y) == g.subOf(cx, cy, to.X, to.Y) {
		// In place: the same cell, and the same sub-square if ordered
		// (an entity lies in the run of its position's square).
		g.touchAt(bi, in)
		p.x, p.y, p.z = to.X, to.Y, to.Z
		cl.zlo, cl.zhi = min(cl.zlo, to.Z), max(cl.zhi, to.Z)
		return
	}
	// To another square of its cell: out of its run and into the other's
	// (nothing leaves the cell's memory: not counted for settle).
	e, m := g.unplace(h)
	e.x, e.y, e.z = to.X, to.Y, to.Z
	g.place(e, m, false)
}

// SetRadius changes the radius the entity covers (+Inf for no limit).
func (g *Grid) SetRadius(h Handle, radius float32) {
	r2 := checkRadius(radius)
	c, i := g.find(h)
	g.touch(int(g.slots[h].cell))
	c.p[i].r2 = r2
	c.minR2 = min(c.minR2, r2)
	g.grow(c, r2)
}

// SetWeight changes what the entity counts against a Nearest limit: 1 for a
// lone entity, 1 + the number of objects attached below it for a chain root.
func (g *Grid) SetWeight(h Handle, weight uint32) {
	if weight == 0 {
		panic("grid: weight 0")
	}
	c, i := g.find(h)
	g.touch(int(g.slots[h].cell))
	c.m[i].weight = weight
}

// SetRev records the entity's revision (its rev on the wire), returned in
// hits, so that a view can diff a wanted set without looking the entity up.
func (g *Grid) SetRev(h Handle, rev uint32) {
	c, i := g.find(h)
	g.touch(int(g.slots[h].cell))
	c.m[i].rev = rev
}

// Remove deletes the entity; its handle may be returned by a later Insert.
func (g *Grid) Remove(h Handle) {
	g.unplace(h)
	g.slots[h] = slot{cell: -1}
	g.free = append(g.free, h)
	g.count--
	if g.count == 0 {
		g.maxR2 = 0
		g.gver = g.ver
	}
}

// Position returns the entity's position.
func (g *Grid) Position(h Handle) Vec {
	c, i := g.find(h)
	return Vec{c.p[i].x, c.p[i].y, c.p[i].z}
}

// Key returns the key the entity was inserted with.
func (g *Grid) Key(h Handle) uint32 {
	c, i := g.find(h)
	return c.m[i].key
}

// MinCell is the smallest cell side: below it, a scope's block directory
// alone would pass 70 KB.
const MinCell = 8

func checkCell(size float32) {
	if !(size >= MinCell && size <= 2*Bound) {
		panic(fmt.Sprintf("grid: cell size %v outside %d..%d", size, MinCell, 2*Bound))
	}
}

func checkRadius(r float32) float32 {
	if !(r >= 0) {
		panic(fmt.Sprintf("grid: radius %v", r))
	}
	return r * r
}

func checkPos(p Vec) {
	if !finite(p.X) || !finite(p.Y) || !finite(p.Z) {
		panic(fmt.Sprintf("grid: position %v", p))
	}
}

func (g *Grid) slot(h Handle) slot {
	if int(h) >= len(g.slots) || g.slots[h].cell < 0 {
		panic(fmt.Sprintf("grid: handle %d is not in the grid", h))
	}
	return g.slots[h]
}

func (g *Grid) find(h Handle) (*cell, int32) {
	s := g.slot(h)
	return g.cellAt(int(s.cell)), s.idx
}

// axis returns the cell coordinate of v on one axis, clamped to the grid.
func (g *Grid) axis(v float32) int {
	f := (v + Bound) * g.inv
	if !(f >= 0) { // also -Inf
		return 0
	}
	if f >= float32(g.side) {
		return g.side - 1
	}
	return int(f)
}

func (g *Grid) cellIndex(x, y float32) int { return g.axis(y)*g.side + g.axis(x) }

// cellAt returns the cell, allocating its block on first use.
func (g *Grid) cellAt(c int) *cell {
	bi, in := g.blockOf(c%g.side, c/g.side)
	b := g.blocks[bi]
	if b == nil {
		b = new(block)
		g.blocks[bi] = b
		if g.occ == nil {
			g.occ = make([]uint16, len(g.blocks)*blockSide)
		}
	}
	return &b[in]
}

// occupy records whether the cell with linear index c holds an entity.
func (g *Grid) occupy(c int, held bool) {
	bi, in := g.blockOf(c%g.side, c/g.side)
	w, bit := &g.occ[bi*blockSide+in/blockSide], uint16(1)<<(in%blockSide)
	if held {
		*w |= bit
	} else {
		*w &^= bit
	}
}

// occupant returns cell (cx, cy) when it holds an entity, else nil
// (without reading the cell).
func (g *Grid) occupant(cx, cy int) *cell {
	bi, in := g.blockOf(cx, cy)
	if g.occ == nil || g.occ[bi*blockSide+in/blockSide]&(1<<(in%blockSide)) == 0 {
		return nil
	}
	return &g.blocks[bi][in]
}

// occupied returns the bits of the cells of row cy of block (bx, by) that
// hold an entity, among columns x0..x1 of the grid.
func (g *Grid) occupied(bx, by, cy, x0, x1 int) uint16 {
	lo, hi := max(x0-bx*blockSide, 0), min(x1-bx*blockSide, blockSide-1)
	mask := uint16(0xffff) >> (blockSide - 1 - hi) &^ (uint16(1)<<lo - 1)
	return g.occ[(by*g.bside+bx)*blockSide+cy%blockSide] & mask
}

// peek returns the cell's entries without allocating, nil when its block is empty.
func (g *Grid) peek(cx, cy int) *cell {
	bi, in := g.blockOf(cx, cy)
	b := g.blocks[bi]
	if b == nil {
		return nil
	}
	return &b[in]
}

func (g *Grid) grow(c *cell, r2 float32) {
	if r2 > c.maxR2 {
		c.maxR2 = r2
	}
	if r2 > g.maxR2 {
		g.maxR2 = r2
		g.gver = g.ver
	}
}

// place puts the entity in its cell; placed says it counts for settle
// (it was not in this cell: a move to another sub-square of its cell moves
// nothing out of the cell's memory).
func (g *Grid) place(p pos, m meta, placed bool) {
	ci := g.cellIndex(p.x, p.y)
	c := g.cellAt(ci)
	g.touch(ci)
	c.bound(p)
	g.put(ci, c, p, m)
	g.grow(c, p.r2)
	if placed {
		g.placed++
	}
}

// settle compacts a grid of at least compactMin entities once at least a
// quarter of them were placed in a cell since the last Compact (a bulk load
// grew it by a third, or a quarter of its entities moved across cells), so
// that at most a quarter of a loaded grid lies out of order: a scan reads cells' entities from memory in row order, not
// from wherever each cell's slice grew (decision 0245: the object views'
// scans are bound by memory, and a million objects inserted one by one
// leave every cell's slice elsewhere). Amortized, each placement pays for
// about four entities' copies.
func (g *Grid) settle() {
	if g.count >= compactMin && 4*g.placed >= g.count {
		g.Compact()
	}
}

// compactMin is the fewest entities for which the grid compacts itself.
// Below it a grid's cells fit in the caches anyway, and the cost of
// Compact's walk over the cell directory would not be repaid.
const compactMin = 1 << 14

// unplace removes the entity from its cell (take) and returns it.
func (g *Grid) unplace(h Handle) (pos, meta) {
	s := g.slot(h)
	c := g.cellAt(int(s.cell))
	g.touch(int(s.cell))
	p, m := g.take(int(s.cell), c, s.idx)
	if len(c.p) == 0 {
		c.maxR2 = 0
	}
	return p, m
}

// Compact lays every cell's entities out again in one array, cells in row
// order with a little room to grow, so that a query reading a row of cells
// reads memory in order, each cell's entities ordered by sub-square (from
// then on kept so: subs.go). Cells fill their own slices as entities come and go;
// a grid of compactMin entities or more calls it itself (settle) once a
// quarter of them were placed in a cell since the last, and a caller may call it
// after a bulk load. Queries give the same results
// before and after.
func (g *Grid) Compact() {
	g.placed = 0
	g.compacts++
	const room = 8 // extra capacity per cell: 1/room of its entities, at least 1
	total := 0
	for _, b := range g.blocks {
		if b != nil {
			for i := range b {
				if n := len(b[i].p); n > 0 {
					total += n + n/room + 1
				}
			}
		}
	}
	ps, ms := make([]pos, total), make([]meta, total)
	if g.subs == nil {
		g.subs = make([]*subEnds, len(g.blocks))
	}
	off := 0
	for cy := range g.side {
		row := g.blocks[(cy/blockSide)*g.bside:][:g.bside]
		for bx, b := range row {
			if b == nil {
				continue // 16 cells without a block: skipped at once
			}
			cells := b[(cy%blockSide)*blockSide:][:min(blockSide, g.side-bx*blockSide)]
			for i := range cells {
				c := &cells[i]
				n := len(c.p)
				if n == 0 {
					continue
				}
				end := off + n + n/room + 1
				cx := bx*blockSide + i
				g.order(c, cx, cy, g.ends(cy*g.side+cx), ps[off:off+n], ms[off:off+n])
				c.p, c.m = ps[off:off+n:end], ms[off:off+n:end]
				off = end
				c.tighten()
			}
		}
	}
}

// tighten sets the cell's bounds from its entities (radii and heights),
// as Compact copies it.
func (c *cell) tighten() {
	c.maxR2, c.minR2, c.zlo, c.zhi = 0, inf, inf, -inf
	for i := range c.p {
		e := &c.p[i]
		c.maxR2, c.minR2 = max(c.maxR2, e.r2), min(c.minR2, e.r2)
		c.zlo, c.zhi = min(c.zlo, e.z), max(c.zhi, e.z)
	}
}

func finite(v float32) bool { return v >= -math.MaxFloat32 && v <= math.MaxFloat32 }
