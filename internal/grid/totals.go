package grid

// cellTotal is what a [Cache] keeps of one cell for its Diff: the count,
// weight and fingerprint (the cache's sum function over key and rev) of the
// cell's entities, and the cell's change stamp when they were counted.
type cellTotal struct {
	ver uint64
	n   int
	w   uint64
	sum uint64
	ok  bool
}

// Diff is [Grid.Diff] on the cache's grid with its limit and sum function,
// for a point that keeps no [Shell] between steps (decision 0342): a cell
// whose every entity is in the answer at from (nearer than the old cut's
// distance, covering from) and in the answer at to (nearer than the band,
// covering to) is counted from the cache's totals of that cell instead of
// being read. The result is Diff's, exactly: those entities are neither
// entering nor leaving, and Diff would only have counted them.
//
// A cell's totals are counted on its first such use and again after any
// change in it (the grid's change stamps: an entity added, removed, moved,
// or its rev or weight set), so a cache serves one grid and one sum, as
// its boxes do.
func (c *Cache) Diff(from, to Vec, cut uint64, s *Step) bool {
	return c.g.diff(from, to, int(c.limit), cut, c.sum, s, nil, 0, c)
}

// inBoth reports whether every entity of cell c at (cx, cy) is, by the
// cell's bounds, nearer than √lo2 to to, nearer than √cutD2 to from, and
// covers both points (padded for float32 rounding as heldSkips is).
func (g *Grid) inBoth(c *cell, cx, cy int, from, to Vec, lo2, cutD2 float32) bool {
	ft := g.far2(c, cx, cy, to)
	if ft >= lo2 {
		return false
	}
	ff := g.far2(c, cx, cy, from)
	return ff < cutD2 && max(ft, ff) <= c.minR2
}

// total returns the totals of cell c at (cx, cy), counted again if the cell
// changed since they were.
func (c *Cache) total(cl *cell, cx, cy int) *cellTotal {
	g := c.g
	if c.tot == nil {
		c.tot = make([]cellTotal, g.side*g.side)
	}
	t := &c.tot[cy*g.side+cx]
	bi, in := g.blockOf(cx, cy)
	var ver uint64
	if cv := g.cver[bi]; cv != nil {
		ver = cv[in]
	}
	c.stats.Counted++
	if t.ok && t.ver == ver {
		return t
	}
	c.stats.Recounted++
	*t = cellTotal{ver: ver, n: len(cl.p), ok: true}
	for _, m := range cl.m[:len(cl.p)] {
		t.w += uint64(m.weight)
		if c.sum != nil {
			t.sum += c.sum(m.key, m.rev)
		}
	}
	return t
}
