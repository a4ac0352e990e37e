package grid

import (
	"math"
)

// NoLimit as a [Cache]'s limit makes it answer [Grid.Covering]: every
// entity whose radius covers the point.
const NoLimit = math.MaxInt

// Cache answers [Grid.Nearest] (or [Grid.Covering], with [NoLimit]) for one
// limit from per-box candidate sets, so that the players of a full pass do
// not each walk the grid. Space is cut into boxes (side × side × height
// meters). A [Box] holds, for every point of it:
//
//   - the sure part: entities that are in the answer at every point of the
//     box (they cover the whole box, and too few entities can be nearer for
//     them to be cut by the limit), with their weight and a fingerprint sum
//     precomputed;
//   - the band: every other entity that can be in the answer, or be the
//     first one the limit refuses, at some point of the box.
//
// A query at p scans the band only (at most a few hundred entities, contiguous) and
// selects from it with the limit left by the sure part. The answer is the
// same set as Grid.Nearest's, exactly (the bounds are conservative by more
// than the float32 rounding of distances; the oracle tests compare them).
//
// A box is built on its third query (paced by a credit the queries earn; until
// then the grid answers), and again after a change in the grid that can
// concern it: it records the cells within its reach, and the grid's change
// stamps tell whether any of them changed; a change anywhere else leaves it
// valid. See docs/decisions/0190-box-cache.md.
//
// A Cache belongs to its grid's goroutine, like the grid.
type Cache struct {
	g      *Grid
	limit  uint64
	side   float64
	height float64
	sum    func(key, rev uint32) uint64
	boxes  map[boxKey]*Box
	max    int
	credit int    // builds left to pay for, in queries (see pacing)
	epoch  uint32 // Reset count: boxes of an earlier epoch are not used
	stats  CacheStats

	tot []cellTotal // per cell, for Diff (totals.go); allocated by the first

	// Build scratch.
	cand  []cand
	full  []cand
	bandc []cand
	cum   []uint64
}

type boxKey struct{ x, y, z int32 }

// Box is the candidate set of one box of a [Cache]. It is read-only for the
// caller and valid until the next query of its cache.
//
// A box whose band is large (entities dense around the limit's distance)
// is split in halves along its longer axes; its parts are built (paced like
// boxes; until then the box answers) from its own candidates, without a
// grid walk, and inherit its sure part.
type Box struct {
	// Read by every query.
	band  cell
	n     int    // entities of the sure part, with the inherited ones
	sureW uint64 // their weight
	sum   uint64 // their fingerprint
	kids  *[8]*Box
	axes  uint8 // when split: bit i set if axis i is halved at mid[i]
	mid   [3]float64
	ready bool     // built (a top box: and not invalidated since)
	uses  uint8    // queries while not ready (saturating)
	kuses [8]uint8 // queries of each part while not built

	up     *Box     // the box this one is a part of, whose sure part it inherits
	g      *Grid    // where the sure part is (by handle: read only when listed)
	sure   []Handle // the sure part beyond the inherited one
	lo, hi [3]float64

	top   *Box   // the top box (itself for a top box)
	gen   uint32 // a top box's build count; a part's top's when it was built
	cache *Cache // a top box's cache
	epoch uint32 // a top box's cache's epoch when it was made

	// Validity, of a top box (parts share their top box's).
	built    uint64 // the grid's ver when built, or last found valid
	cx0, cy0 int    // the cells it depends on
	cx1, cy1 int
	used     bool
}

// whole is the box of points a cache does not cut into boxes (far outside
// the world): no sure part, the query answers everything in its hits.
var whole = &Box{}

// Len returns the number of entities of the sure part.
func (b *Box) Len() int { return b.n }

// Weight returns the total weight of the sure part.
func (b *Box) Weight() uint64 { return b.sureW }

// Sum returns the sure part's fingerprint: the sum of the cache's sum
// function over its entities' (key, rev).
func (b *Box) Sum() uint64 { return b.sum }

// AppendSure appends the sure part to dst as hits at p and returns the
// extended slice.
func (b *Box) AppendSure(p Vec, dst []Hit) []Hit {
	for ; b != nil; b = b.up {
		for _, h := range b.sure {
			c, i := b.g.find(h)
			e, m := &c.p[i], &c.m[i]
			dst = append(dst, Hit{Key: m.key, Rev: m.rev, Dist2: Dist2(Vec{e.x, e.y, e.z}, p), Weight: m.weight})
		}
	}
	return dst
}

// NewCache returns a cache of g's answers for limit (≥ 1, or [NoLimit]) in
// boxes of side × side × height meters. sum, if not nil, is the fingerprint
// a caller adds over (key, rev) (see stream.Mix); a box precomputes it for
// its sure part. maxBoxes bounds the boxes kept: past it, boxes unused since
// the last sweep are dropped.
func NewCache(g *Grid, limit int, side, height float32, sum func(key, rev uint32) uint64, maxBoxes int) *Cache {
	if limit < 1 {
		panic("grid: cache limit < 1")
	}
	if !(side >= 1 && height >= 1 && side <= 2*Bound && height <= 2*Bound) {
		panic("grid: cache box size")
	}
	return &Cache{
		g:      g,
		limit:  uint64(limit),
		side:   float64(side),
		height: float64(height),
		sum:    sum,
		boxes:  map[boxKey]*Box{},
		max:    max(maxBoxes, 1),
		credit: maxCredit,
	}
}

// Pacing of builds. A box (or a part) is built on its buildAfter-th query
// while not built, and only if the cache has the credit for it: every query
// earns 1, a build of a top box costs topCost, of a part partCost (about
// their cost in plain queries, measured: docs/benchmarks/stream.md). Until
// then a query goes to the grid (or to the box a part is of), so players
// moving through boxes, or changes that keep invalidating a box, cost at
// most a bounded share of builds instead of a build per query.
const (
	buildAfter = 3
	topCost    = 8
	partCost   = 4
	maxCredit  = 4096
)

// CacheStats counts what a cache did.
type CacheStats struct {
	Queries   uint64 // Query calls
	Grid      uint64 // answered by the grid, without a box
	Builds    uint64 // boxes built (again, after an invalidation)
	Parts     uint64 // parts of split boxes built
	Fallbacks uint64 // answered by a split box instead of its part not built yet
	Counted   uint64 // cells Diff counted from the totals instead of reading them
	Recounted uint64 // cells whose totals were counted (again: first use, or a change)
}

// Stats returns the counters since the cache was made.
func (c *Cache) Stats() CacheStats { return c.stats }

// Len returns the number of boxes held.
func (c *Cache) Len() int { return len(c.boxes) }

// Reset drops every box, also for QueryNear, and Diff's cell totals.
func (c *Cache) Reset() {
	clear(c.boxes)
	clear(c.tot)
	c.epoch++
}

// Query returns the box of p and appends to dst the rest of the answer at p:
// the answer of Grid.Nearest(p, limit) (Grid.Covering(p) for NoLimit) is
// the box's sure part and the appended hits, which weigh at most the limit
// together. Like Nearest, the hits come as a set, in no particular order.
func (c *Cache) Query(p Vec, dst []Hit) (*Box, []Hit) {
	return c.answer(c.lookup(p), p, dst)
}

// QueryNear is Query given the box the caller's last query of this cache
// returned (nil at first): while p stays in that box and it is still valid
// (and still split the same), it is used without looking p's box up, so a
// view that keeps its box skips the lookup. The answer is Query's.
func (c *Cache) QueryNear(last *Box, p Vec, dst []Hit) (*Box, []Hit) {
	if !c.current(last, p) {
		return c.Query(p, dst)
	}
	return c.answer(c.descend(last, p), p, dst)
}

// Holds reports whether last, a box a query of c returned, still answers
// at p as it did: p is in it, and it is still valid (nothing changed within
// its reach, it was not rebuilt since). Then the answer at a point last
// answered before is the same as then, whatever changed elsewhere in the
// grid (a caller repeating answers need not watch the grid's Version). It
// counts as a query of the box: it earns build credit, as QueryNear does.
func (c *Cache) Holds(last *Box, p Vec) bool { return c.current(last, p) }

// current reports whether last holds p and is valid, and if so counts a
// query of it (QueryNear, Holds).
func (c *Cache) current(last *Box, p Vec) bool {
	if last == nil || last.top == nil || !last.inside(p) {
		return false
	}
	t := last.top
	if t.cache != c || t.epoch != c.epoch || !t.ready || last.gen != t.gen || !c.valid(t) {
		return false
	}
	c.stats.Queries++
	c.credit = min(c.credit+1, maxCredit)
	t.used = true
	return true
}

// inside reports whether p is in b's bounds (closed: a point on a border
// may use either box, both widened by boxSlack).
func (b *Box) inside(p Vec) bool {
	for ax, v := range [3]float32{p.X, p.Y, p.Z} {
		if !(float64(v) >= b.lo[ax] && float64(v) <= b.hi[ax]) {
			return false
		}
	}
	return true
}

// answer appends the answer at p from box b (nil: from the grid).
func (c *Cache) answer(b *Box, p Vec, dst []Hit) (*Box, []Hit) {
	if b == nil {
		if c.limit == NoLimit {
			return whole, c.g.Covering(p, dst)
		}
		return whole, c.g.Nearest(p, int(c.limit), dst)
	}
	base := len(dst)
	dst = cover(&b.band, p, inf, dst)
	if c.limit == NoLimit {
		return b, dst
	}
	lim := c.limit - b.sureW
	hs := dst[base:]
	var w uint64
	lo, hi := span(hs, &w)
	if w <= lim {
		return b, dst
	}
	if len(hs) > maxInsertion {
		n := c.g.choose(hs, lim, w, lo, hi)
		return b, dst[:base+n]
	}
	// The band is stored by distance from the box's center, so the hits
	// are nearly in order of distance from p: an insertion sort is a few
	// compares a hit, then the prefix is read off.
	for i := 1; i < len(hs); i++ {
		h, r := hs[i], hs[i].Rank()
		j := i
		for ; j > 0 && hs[j-1].Rank() > r; j-- {
			hs[j] = hs[j-1]
		}
		hs[j] = h
	}
	var sum uint64
	for i := range hs {
		if sum += uint64(hs[i].Weight); sum > lim {
			return b, dst[:base+i]
		}
	}
	return b, dst
}

// maxInsertion is the most hits a query selects from by insertion sort;
// more go to the bucket selection of Nearest.
const maxInsertion = 256

// farBox is how far (meters) from the world's center a cache cuts space
// into boxes; queries farther away go to the grid.
const farBox = 1 << 22

// lookup returns the valid box of p, built if needed, or nil for a point
// too far out for boxes.
func (c *Cache) lookup(p Vec) *Box {
	fx, fy, fz := math.Floor(float64(p.X)/c.side), math.Floor(float64(p.Y)/c.side), math.Floor(float64(p.Z)/c.height)
	if !(math.Abs(fx*c.side) < farBox && math.Abs(fy*c.side) < farBox && math.Abs(fz*c.height) < farBox) {
		return nil
	}
	k := boxKey{int32(fx), int32(fy), int32(fz)}
	c.stats.Queries++
	c.credit = min(c.credit+1, maxCredit)
	b := c.boxes[k]
	if b == nil {
		if len(c.boxes) >= c.max {
			c.sweep()
		}
		b = &Box{g: c.g, cache: c, epoch: c.epoch}
		b.top = b
		c.boxes[k] = b
	}
	b.used = true
	if b.ready && !c.valid(b) {
		*b = Box{g: c.g, cache: c, epoch: b.epoch, top: b, gen: b.gen, used: true} // let the old candidates go
	}
	if !b.ready {
		b.uses = min(b.uses, 254) + 1
		if b.uses < buildAfter || c.credit < topCost {
			c.stats.Grid++
			return nil
		}
		c.credit -= topCost
		c.stats.Builds++
		b.lo = [3]float64{fx * c.side, fy * c.side, fz * c.height}
		b.hi = [3]float64{(fx + 1) * c.side, (fy + 1) * c.side, (fz + 1) * c.height}
		c.build(b)
		b.gen++ // parts of an earlier build are not this one's
		b.ready = true
	}
	return c.descend(b, p)
}

// descend returns the deepest part of b holding p that is built (building
// it if due).
func (c *Cache) descend(b *Box, p Vec) *Box {
	for b.kids != nil {
		i := 0
		for ax, v := range [3]float32{p.X, p.Y, p.Z} {
			if b.axes&(1<<ax) != 0 && float64(v) >= b.mid[ax] {
				i |= 1 << ax
			}
		}
		kid := b.kids[i]
		if kid == nil {
			b.kuses[i] = min(b.kuses[i], 254) + 1
			if b.kuses[i] < buildAfter || c.credit < partCost {
				c.stats.Fallbacks++
				return b // b's candidates hold the part's
			}
			c.credit -= partCost
			c.stats.Parts++
			kid = c.part(b, i)
			b.kids[i] = kid
		}
		b = kid
	}
	return b
}

// sweep drops the boxes unused since the last sweep (all of them if every
// box was used).
func (c *Cache) sweep() {
	n := len(c.boxes)
	for k, b := range c.boxes {
		if !b.used {
			delete(c.boxes, k)
		}
		b.used = false
	}
	if len(c.boxes) == n {
		clear(c.boxes)
	}
}

// maxCellCheck is the most cells valid looks at, in the blocks changed
// since a box was built; a box reaching farther is built again on any
// change in its blocks.
const maxCellCheck = 1024

// valid reports whether no change in the grid since b was built (or last
// found valid) can concern it: none in the cells it read, and no growth of
// the largest radius. Blocks without a change since are skipped whole.
func (c *Cache) valid(b *Box) bool {
	if !c.g.unchanged(b.built, b.cx0, b.cy0, b.cx1, b.cy1) {
		return false
	}
	b.built = c.g.ver // nothing changed where it looked: valid as of now
	return true
}

// unchanged reports whether no change since the grid's version since can
// concern what was read in the cells (cx0..cx1, cy0..cy1): none in those
// cells, and no growth of the largest radius. Blocks without a change since
// are skipped whole.
func (g *Grid) unchanged(since uint64, cx0, cy0, cx1, cy1 int) bool {
	if g.gver > since {
		return false
	}
	if g.ver == since {
		return true
	}
	for by := cy0 / blockSide; by <= cy1/blockSide; by++ {
		for bx := cx0 / blockSide; bx <= cx1/blockSide; bx++ {
			bi := by*g.bside + bx
			if g.bver[bi] <= since {
				continue
			}
			if (cx1-cx0+1)*(cy1-cy0+1) > maxCellCheck {
				return false // too wide a reach to look at its cells
			}
			cv := g.cver[bi]
			for cy := max(cy0, by*blockSide); cy <= min(cy1, by*blockSide+blockSide-1); cy++ {
				row := cv[(cy%blockSide)*blockSide:]
				for cx := max(cx0, bx*blockSide); cx <= min(cx1, bx*blockSide+blockSide-1); cx++ {
					if row[cx%blockSide] > since {
						return false
					}
				}
			}
		}
	}
	return true
}
