package grid

import (
	"math"
	"math/bits"
	"slices"
)

// slack (meters) is taken off every cell distance bound, so that float32
// rounding in the cell assignment can never make a query skip a cell that
// holds a covering entity.
const slack = 0.01

var inf = float32(math.Inf(1))

// Hit is one query result.
type Hit struct {
	Key    uint32  // the key the entity was inserted with
	Rev    uint32  // the entity's revision (see [Grid.SetRev])
	Dist2  float32 // squared 3D distance from the query point
	Weight uint32  // what the entity counts against a Nearest limit
}

// Rank orders hits by distance, then key: the order of [Grid.Nearest] and
// of every "nearest first" list built from hits.
func (h Hit) Rank() uint64 { return uint64(math.Float32bits(h.Dist2))<<32 | uint64(h.Key) }

// Covering appends to dst every entity whose radius covers p (3D distance ≤
// radius), in no particular order, and returns the extended slice.
func (g *Grid) Covering(p Vec, dst []Hit) []Hit {
	if g.count == 0 {
		return dst
	}
	r := float32(math.Sqrt(float64(g.maxR2))) + slack
	x0, x1 := g.axis(p.X-r), g.axis(p.X+r)
	y0, y1 := g.axis(p.Y-r), g.axis(p.Y+r)
	// Walk block by block, so that the empty blocks of a wide query cost one
	// pointer test each. Not warmed in a batch as Nearest's rings are: in a
	// packed crowd whose cells are in the cache the warm pass only costs
	// (decision 0380, amended).
	for by := y0 / blockSide; by <= y1/blockSide; by++ {
		for bx := x0 / blockSide; bx <= x1/blockSide; bx++ {
			b := g.blocks[by*g.bside+bx]
			if b == nil {
				continue
			}
			for cy := max(y0, by*blockSide); cy <= min(y1, by*blockSide+blockSide-1); cy++ {
				occ := g.occupied(bx, by, cy, x0, x1)
				if occ == 0 {
					continue
				}
				gy := g.gap(p.Y, cy)
				row := b[(cy%blockSide)*blockSide:]
				for ; occ != 0; occ &= occ - 1 {
					i := bits.TrailingZeros16(occ)
					c, cx := &row[i], bx*blockSide+i
					gx := g.gap(p.X, cx)
					if gx*gx+gy*gy > c.maxR2 {
						continue
					}
					dst = cover(c, p, inf, dst)
				}
			}
		}
	}
	return dst
}

// Nearest appends to dst the nearest entities whose radius covers p, in the
// order (distance, key), as long as their weights sum to at most limit: the
// longest such prefix of that order. A chain root whose weight does not fit
// ends the list, so no farther entity takes the room a nearer chain was
// refused. The hits are appended as a set, in no particular order (sort them
// by [Hit.Rank] if needed): finding them is a partial selection, not a sort.
//
// The search visits rings of cells around p. Once the hits found weigh at
// least limit, it bounds the distance of any hit that can still make the
// list and ignores anything farther; it stops when no unvisited cell is
// within that bound or within the largest radius, or every entity was found.
func (g *Grid) Nearest(p Vec, limit int, dst []Hit) []Hit {
	if g.count == 0 || limit <= 0 {
		return dst
	}
	base, lim := len(dst), uint64(limit)
	cx0, cy0 := g.axis(p.X), g.axis(p.Y)
	a := found{lo: math.Float32bits(inf)}
	bound := inf // only hits within bound can still make the list
	cut := 0     // hits when bound was last computed
	for k := 0; ; k++ {
		dst = g.ring(p, cx0, cy0, k, bound, dst, &a)
		l, more := g.beyond(p, cx0, cy0, k)
		if !more || len(dst)-base == g.count {
			break
		}
		l2 := l * l
		if l2 > g.maxR2 {
			break
		}
		// The bound costs a pass over the hits: compute it again only once
		// they grew by half (a stale bound is larger, never wrong).
		if n := len(dst) - base; a.w >= lim && 2*n >= 3*cut {
			lo, hi := a.span()
			bound, cut = min(bound, cutoff(dst[base:], lim, lo, hi)), max(n, 1)
		}
		if l2 > bound {
			break
		}
	}
	if a.warm == warmMark {
		dst = slices.Grow(dst, 1) // a no-op that keeps the warm loads
	}
	if a.w <= lim { // every hit makes the list: no selection
		return dst
	}
	lo, hi := a.span()
	n := g.choose(dst[base:], lim, a.w, lo, hi)
	return dst[:base+n]
}

// found sums up the hits of a Nearest query as they are appended, so that
// the bound and the selection need no pass of their own for it: their total
// weight and the bits of their smallest and largest squared distance
// (non-negative floats order as their bits).
type found struct {
	w      uint64
	lo, hi uint32
	warm   uint32 // a sum of the loads that only start misses (batch.warm)
}

func (a *found) span() (lo, hi float32) {
	return math.Float32frombits(a.lo), math.Float32frombits(a.hi)
}

// cutoff returns a squared distance beyond which no hit can make the list
// of hits hs (weighing at least lim, squared distances lo..hi): the upper
// edge of the distance bucket where their cumulative weight passes lim. One
// pass, no reordering.
func cutoff(hs []Hit, lim uint64, lo, hi float32) float32 {
	scale, ok := BucketScale(buckets, lo, hi)
	if !ok {
		return hi // no bucket to find: hi is the bound, as for one distance
	}
	var hist [buckets]uint64
	for _, h := range hs {
		hist[min(int((h.Dist2-lo)*scale), buckets-1)] += uint64(h.Weight)
	}
	var cum uint64
	for b := range buckets {
		if cum += hist[b]; cum > lim {
			// Hits of bucket b are at most its upper edge; widen by a few ulps
			// for the rounding of (d2-lo)*scale.
			return min(hi, (lo+float32(b+1)/scale)*(1+1e-5))
		}
	}
	return hi // cum == lim: the list is every hit, and a farther one cannot fit
}

// ring scans the cells at Chebyshev distance k from (cx0, cy0) in three
// passes (decision 0380, after 0368's scans): it lists the occupied cells
// within reach (no cell read), loads one word of every cache line of their
// entries, then reads them. The listing and the loads do nothing else, so
// the cells' misses are in flight together, where a scan cell by cell waits
// on each cell's first lines in turn.
func (g *Grid) ring(p Vec, cx0, cy0, k int, bound float32, dst []Hit, a *found) []Hit {
	var b batch
	reach := min(bound, g.maxR2)
	if k == 0 {
		b.add(g, p, cx0, cy0, reach)
		return b.flush(p, bound, dst, a)
	}
	// The ring's rows by their blocks' occupancy bits: an empty cell costs
	// nothing, an empty block one test.
	x0, x1 := max(cx0-k, 0), min(cx0+k, g.side-1)
	for _, cy := range [2]int{cy0 - k, cy0 + k} {
		if cy < 0 || cy >= g.side {
			continue
		}
		by, gy := cy/blockSide, g.gap(p.Y, cy)
		for bx := x0 / blockSide; bx <= x1/blockSide; bx++ {
			bl := g.blocks[by*g.bside+bx]
			if bl == nil {
				continue
			}
			row := bl[(cy%blockSide)*blockSide:]
			for occ := g.occupied(bx, by, cy, x0, x1); occ != 0; occ &= occ - 1 {
				i := bits.TrailingZeros16(occ)
				if b.addAt(g, p, &row[i], bx*blockSide+i, gy, reach) {
					dst = b.flush(p, bound, dst, a)
				}
			}
		}
	}
	y0, y1 := max(cy0-k+1, 0), min(cy0+k-1, g.side-1)
	for _, cx := range [2]int{cx0 - k, cx0 + k} {
		if cx < 0 || cx >= g.side {
			continue
		}
		for cy := y0; cy <= y1; cy++ {
			if b.add(g, p, cx, cy, reach) {
				dst = b.flush(p, bound, dst, a)
			}
		}
	}
	return b.flush(p, bound, dst, a)
}

// cover appends the cell's entities whose radius covers p, within bound.
//
// The test is branchless: every entity is written at the end of dst and the
// length advances only past those that pass (about half fail the radius test
// at random, which a branch would mispredict), with the entity's index in Key.
// A second, predictable pass replaces the index by the entity's meta, so the
// meta of entities that fail is never read.
func cover(c *cell, p Vec, bound float32, dst []Hit) []Hit {
	ps := c.p
	n0 := len(dst)
	dst = slices.Grow(dst, len(ps))
	out := dst[n0 : n0+len(ps)]
	// Squared distances and radii are non-negative (or +Inf), so they
	// compare as their bits: an integer min and a subtraction's sign bit
	// compile without a branch.
	bb := uint64(math.Float32bits(bound))
	n := 0
	for i := range ps {
		e := &ps[i]
		dx, dy, dz := e.x-p.X, e.y-p.Y, e.z-p.Z
		d2 := dx*dx + dy*dy + dz*dz
		out[n] = Hit{Key: uint32(i), Dist2: d2}
		t := min(uint64(math.Float32bits(e.r2)), bb)
		n += int((t-uint64(math.Float32bits(d2)))>>63 ^ 1) // d2 <= r2 && d2 <= bound
	}
	ms := c.m[:len(ps)]
	for j := range out[:n] {
		h := &out[j]
		m := &ms[h.Key]
		h.Key, h.Rev, h.Weight = m.key, m.rev, m.weight
	}
	return dst[:n0+n]
}

// gap is a lower bound of the distance along one axis from v to the cell c;
// edge cells reach to infinity outward.
func (g *Grid) gap(v float32, c int) float32 {
	lo := float32(c)*g.size - Bound
	if c > 0 && v < lo {
		return max(lo-v-slack, 0)
	}
	hi := lo + g.size
	if c < g.side-1 && v > hi {
		return max(v-hi-slack, 0)
	}
	return 0
}

// beyond returns a lower bound of the 2D distance from p to every cell
// outside the square of rings 0..k, and whether any such cell exists.
func (g *Grid) beyond(p Vec, cx0, cy0, k int) (float32, bool) {
	l, more := float32(math.Inf(1)), false
	side := func(d float32) {
		l, more = min(l, max(d-slack, 0)), true
	}
	if c := cx0 - k; c > 0 {
		side(p.X - (float32(c)*g.size - Bound))
	}
	if c := cx0 + k; c < g.side-1 {
		side(float32(c+1)*g.size - Bound - p.X)
	}
	if c := cy0 - k; c > 0 {
		side(p.Y - (float32(c)*g.size - Bound))
	}
	if c := cy0 + k; c < g.side-1 {
		side(float32(c+1)*g.size - Bound - p.Y)
	}
	return l, more
}
