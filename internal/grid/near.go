package grid

import (
	"math"
	"slices"
)

// near is diff's filter of entities ps, run r of the scan's cells: it
// appends to kept those within √reach2 of to that cover to or
// from, with both squared distances. (Beyond the band, when a cut is in
// effect, an entity is beyond the old cut's distance from from too: in
// neither answer.) Like cover, it is branchless: every entity is written
// at the list's end and the length advances by the tests, computed on the
// float bits (squared distances and radii are non-negative, so they order
// as their bits).
func (s *Step) near(kept []nearHit, ps []pos, r scanRun, from, to Vec, reach2 float32) []nearHit {
	n := len(kept)
	out := slices.Grow(kept, len(ps))[:n+len(ps)]
	hb := uint64(math.Float32bits(reach2))
	for i := range ps {
		e := &ps[i]
		dt, df := e.dists(to, from)
		out[n] = nearHit{i: r.start + int32(i), c: r.ci, dt: dt, df: df}
		rb := uint64(math.Float32bits(e.r2))
		tb, fb := uint64(math.Float32bits(dt)), uint64(math.Float32bits(df))
		// Kept: dt ≤ reach2 && min(dt, df) ≤ r2.
		drop := (hb-tb)>>63 | (rb-min(tb, fb))>>63
		n += int(drop ^ 1)
	}
	return out[:n]
}

// nearHeld is near for a held step (decision 0265): it also leaves out the
// entities nearer than √lo2 to to that cover both points and whose squared
// distance from from has bits below cutHi (their Rank is below the cut
// whatever their key: in the old answer, and in the new one, as nearer
// than the band), and those farther than √band2 that
// cannot be in the old answer (not covering from, or their squared
// distance from it has bits above cutHi).
func (s *Step) nearHeld(kept []nearHit, ps []pos, r scanRun, from, to Vec, reach2, lo2, band2 float32, cutHi uint32) []nearHit {
	n := len(kept)
	out := slices.Grow(kept, len(ps))[:n+len(ps)]
	hb, lb, cb := uint64(math.Float32bits(reach2)), uint64(math.Float32bits(lo2)), uint64(cutHi)
	bb := uint64(math.Float32bits(band2))
	for i := range ps {
		e := &ps[i]
		dt, df := e.dists(to, from)
		out[n] = nearHit{i: r.start + int32(i), c: r.ci, dt: dt, df: df}
		rb := uint64(math.Float32bits(e.r2))
		tb, fb := uint64(math.Float32bits(dt)), uint64(math.Float32bits(df))
		// Kept: dt ≤ reach2 && min(dt, df) ≤ r2, and not in both answers
		// (dt < lo2 && max(dt, df) ≤ r2 && fb < cutHi), nor beyond the
		// band and not in the old answer (dt > band2 && (df > r2 || fb > cutHi)).
		drop := (hb-tb)>>63 | (rb-min(tb, fb))>>63
		both := (tb - lb) >> 63 & ((rb-max(tb, fb))>>63 ^ 1) & ((fb - cb) >> 63)
		past := (bb - tb) >> 63 & ((rb-fb)>>63 | (cb-fb)>>63)
		n += int((drop | both | past) ^ 1)
	}
	return out[:n]
}

// nearHit is an entity that near kept: its index in its cell, the cell's
// in the scan's list, its squared distances to the new and old points.
type nearHit struct {
	i, c   int32
	dt, df float32
}

// scanRun is a run of entries a step's scan reads: start up to end
// (exclusive) of the scan's cell ci.
type scanRun struct {
	ci, start, end int32
}

// warmRun loads every cache line of entries start up to end of cell c
// (positions and metas) and returns a value made of them: the caller adds
// it to a field, so that the loads are kept. A scan lists its runs and
// warms them all before it reads any (decision 0368): the loads do
// nothing else, so the CPU has many of their misses in flight, where the
// scan of a cell, with its work per entity, waits on each cell's first
// lines in turn.
func warmRun(c *cell, start, end int32) uint32 {
	ps, ms := c.p[start:end], c.m[start:end]
	var v uint32
	for i := 0; i < len(ps); i += 4 { // 4 entries of 16 bytes a line
		v += math.Float32bits(ps[i].x) + ms[i].key
	}
	if n := len(ps) - 1; n > 0 { // a run off a line's start ends on a line the steps skip
		v += math.Float32bits(ps[n].x) + ms[n].key
	}
	return v
}
