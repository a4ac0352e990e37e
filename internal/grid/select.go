package grid

import (
	"math"
	"slices"
)

// SelectNearest reorders hs so that hs[:n] holds the hits [Grid.Nearest]
// would keep with this limit (the longest prefix in [Hit.Rank] order whose
// weights sum to at most limit) and returns n; for wanted sets built without
// a grid (a player's checkpoints) and for brute-force baselines.
func SelectNearest(hs []Hit, limit int) int {
	if limit <= 0 {
		return 0
	}
	return prefix(hs, uint64(limit))
}

// buckets is the number of distance buckets of the first round of prefix.
const buckets = 256

// minBucketed is the fewest hits prefix selects by buckets; fewer go to the
// quickselect directly. Measured (docs/benchmarks/gridperf.md): the bucket
// round beats the quickselect's mispredicted compares from a few hundred
// hits on.
const minBucketed = buckets

// minChosen is minBucketed for [Grid.Nearest]'s choose, whose bucket round
// is one pass that copies (no swaps): measured (decision 0380,
// BenchmarkCrowded/blips), it beats the quickselect from a few dozen hits.
const minChosen = 48

// prefix reorders hs so that hs[:n] holds the longest prefix of hs in
// [Hit.Rank] order whose weights sum to at most limit, and returns n.
//
// It is a bucket select followed by a weighted quickselect: the hits are
// counted in buckets linear in squared distance (for entities spread evenly
// on the ground, each bucket gets about the same number), the bucket where
// the limit falls is found, the hits before it are taken, and only that
// bucket's hits are selected among. Linear time, no sort, no allocation.
func prefix(hs []Hit, limit uint64) int {
	var total uint64
	lo, hi := span(hs, &total)
	k, n, done := plan(hs, limit, total, lo, hi, minBucketed)
	if done {
		return n
	}
	// hs[:taken] gets the buckets before b, hs[taken:edge] bucket b. Swaps
	// only where needed: for a small share of winners among many hits (a
	// brute-force scan), this beats partition's swap of every hit.
	taken := 0
	for i := range hs {
		if k.of(hs[i].Dist2) < k.b {
			hs[taken], hs[i] = hs[i], hs[taken]
			taken++
		}
	}
	edge := taken
	for i := taken; i < len(hs); i++ {
		if k.of(hs[i].Dist2) == k.b {
			hs[edge], hs[i] = hs[i], hs[edge]
			edge++
		}
	}
	return taken + quickPrefix(hs[taken:edge], limit-k.before)
}

// choose is prefix for Grid.Nearest, which keeps hs[:n] and drops the rest:
// hs[n:] is left in no particular state (not a permutation), so one pass
// replaces the two partitions. It copies the hits of the buckets before b
// to the front of hs and those of bucket b to g.tmp, then selects among
// the latter and appends the winners.
func (g *Grid) choose(hs []Hit, limit, total uint64, lo, hi float32) int {
	k, n, done := plan(hs, limit, total, lo, hi, minChosen)
	if done {
		return n
	}
	if cap(g.tmp) < len(hs) {
		g.tmp = make([]Hit, len(hs)+len(hs)/4)
	}
	tmp := g.tmp[:len(hs)]
	taken, m := 0, 0
	for i := range hs {
		h := hs[i]
		bk := k.of(h.Dist2)
		hs[taken] = h // taken ≤ i: a hit already read
		tmp[m] = h
		taken += int(uint64(bk-k.b) >> 63) // bk < b
		m += int(uint64(bk^k.b-1) >> 63)   // bk == b
	}
	r := quickPrefix(tmp[:m], limit-k.before)
	return taken + copy(hs[taken:], tmp[:r])
}

// BucketScale returns n/(hi-lo), the scale of n buckets linear in squared
// distance over [lo, hi] (the grid's selections, and stream's spanSort),
// and whether the span can be bucketed at all: not when it is empty
// (hi ≤ lo, all hits at one distance), infinite or NaN, or too small to
// divide (distances a few subnormals apart, whose scale is infinite and
// would make a bucket index of int(+Inf) or int(NaN), out of range). The
// callers take another way then: a quickselect, hi itself, or a radix
// sort.
func BucketScale(n, lo, hi float32) (float32, bool) {
	if !(hi > lo) || !(hi-lo < math.MaxFloat32) {
		return 0, false
	}
	scale := n / (hi - lo)
	return scale, scale <= math.MaxFloat32
}

// bucketing is the first round of prefix: hits fall in buckets linear in
// squared distance, and bucket b is where the cumulative weight passes the
// limit (the buckets before it weigh before).
type bucketing struct {
	lo, scale float32
	b         int
	before    uint64
}

func (k *bucketing) of(d2 float32) int { return min(int((d2-k.lo)*k.scale), buckets-1) }

// plan computes the bucketing for limit of hs (weighing total, squared
// distances lo..hi), or, when done, the answer n itself: every hit when
// they weigh at most limit, or a quickselect of hs when they are fewer than
// least (or too alike) for buckets.
func plan(hs []Hit, limit, total uint64, lo, hi float32, least int) (k bucketing, n int, done bool) {
	if total <= limit {
		return k, len(hs), true
	}
	scale, ok := BucketScale(buckets, lo, hi)
	if len(hs) < least || !ok {
		return k, quickPrefix(hs, limit), true
	}
	k.lo, k.scale = lo, scale
	var hist [buckets]uint64
	for i := range hs {
		hist[k.of(hs[i].Dist2)] += uint64(hs[i].Weight)
	}
	for ; k.before+hist[k.b] <= limit; k.b++ { // stops: total > limit
		k.before += hist[k.b]
	}
	return k, 0, false
}

// quickPrefix is prefix by weighted quickselect: expected linear time.
func quickPrefix(hs []Hit, limit uint64) int {
	lo, hi, rem := 0, len(hs), limit
	for lo < hi {
		pr := pivot(hs[lo:hi])
		// Three-way partition of hs[lo:hi]: [lo,lt) < pr, [lt,gt) == pr, [gt,hi) > pr.
		lt, i, gt := lo, lo, hi
		var wl uint64
		for i < gt {
			r := hs[i].Rank()
			switch {
			case r < pr:
				wl += uint64(hs[i].Weight)
				hs[lt], hs[i] = hs[i], hs[lt]
				lt++
				i++
			case r > pr:
				gt--
				hs[gt], hs[i] = hs[i], hs[gt]
			default:
				i++
			}
		}
		if wl > rem {
			hi = lt
			continue
		}
		rem -= wl
		for lo = lt; lo < gt; lo++ {
			if uint64(hs[lo].Weight) > rem {
				return lo
			}
			rem -= uint64(hs[lo].Weight)
		}
	}
	return lo
}

// pivot returns the median rank of the first, middle and last hits.
func pivot(hs []Hit) uint64 {
	a, b, c := hs[0].Rank(), hs[len(hs)/2].Rank(), hs[len(hs)-1].Rank()
	if a > b {
		a, b = b, a
	}
	if b > c {
		b = c
	}
	if a > b {
		b = a
	}
	return b
}

// span returns the smallest and largest squared distance of hs (+Inf and 0
// when hs is empty) and, if total is not nil, adds their weights to it.
// Squared distances are non-negative (or +Inf), so they compare as their
// bits: integer min and max compile to conditional moves, where float32 min
// and max (which must order NaNs and signed zeros) cost a branch each.
func span(hs []Hit, total *uint64) (lo, hi float32) {
	l, h := math.Float32bits(float32(math.Inf(1))), uint32(0)
	var w uint64
	for i := range hs {
		b := math.Float32bits(hs[i].Dist2)
		l, h = min(l, b), max(h, b)
		w += uint64(hs[i].Weight)
	}
	if total != nil {
		*total += w
	}
	return math.Float32frombits(l), math.Float32frombits(h)
}

// cutBuckets is the number of distance buckets of bandCut.
const cutBuckets = 64

// bandCut returns the cut of a step's band s.sel (hits whose squared
// distances are within [lo2, hi2]) when what is nearer than the band left
// room for limit of its weight: the Rank of the first hit, in Rank order,
// past the longest prefix that weighs at most limit (AllCut when all fit).
// It is the least Rank of s.sel[SelectNearest(s.sel, limit):] (unordered),
// found without reordering the band (decision 0414): the band's weights
// are counted in buckets linear in squared distance (a bucket's hits all
// rank before the next bucket's), the bucket where the running weight
// passes limit is found, and only its few hits (picked, returned for the
// tests) are selected among, in s.sel's spare capacity. The count and the
// bucket's pick are loops without a branch a band's order could
// mispredict, where a quickselect of the whole band (~100–250 hits a held
// object step) mispredicts about one compare in two.
func (s *Step) bandCut(limit uint64, lo2, hi2 float32) (cut uint64, picked int) {
	n := len(s.sel)
	s.sel = slices.Grow(s.sel, n) // room for the pick after the band
	hs, pick := s.sel[:n], s.sel[n:2*n]
	cut = AllCut
	scale, ok := BucketScale(cutBuckets, lo2, hi2)
	if !ok {
		copy(pick, hs) // no span to bucket: the quickselect
		k := prefix(pick, limit)
		for _, h := range pick[k:] {
			cut = min(cut, h.Rank())
		}
		return cut, n
	}
	of := func(d2 float32) int { return min(max(int((d2-lo2)*scale), 0), cutBuckets-1) }
	var hist [cutBuckets]uint64
	for i := range hs {
		hist[of(hs[i].Dist2)] += uint64(hs[i].Weight)
	}
	b, before := 0, uint64(0)
	for ; b < cutBuckets && before+hist[b] <= limit; b++ {
		before += hist[b]
	}
	if b == cutBuckets {
		return AllCut, 0
	}
	m := 0
	for i := range hs {
		pick[m] = hs[i]
		m += int(uint64(of(hs[i].Dist2)^b-1) >> 63) // in bucket b
	}
	pick = pick[:m]
	k := quickPrefix(pick, limit-before)
	for _, h := range pick[k:] {
		cut = min(cut, h.Rank())
	}
	return cut, m
}
