package stream

import (
	"math"
	"slices"

	"dlmp/internal/grid"
)

// sortWants sorts ws in compare's order (nearest first) and returns keys,
// its scratch, for the next call.
//
// Distances decide almost every comparison, so the wants are ordered by a
// plain integer sort of (distance bits, index) keys, with no comparison
// function called (squared distances are non-negative, so they order as
// their bits), moved to their places along the permutation's cycles, and
// only runs of equal distance (a chain's objects share their root's) are
// sorted again with compare. A distance whose bits do not order it (−0, a
// negative, a NaN) makes it sort with compare alone.
//
// The keys of a step's shows (radixMin to radixMax of them) are sorted by
// spanSort (radixSort before decision 0415, 0383), the rest by
// slices.Sort: the same order.
func sortWants(ws []Want, keys []uint64) []uint64 {
	if len(ws) < 2 {
		return keys
	}
	n := len(ws)
	keys = keys[:0]
	if n >= radixMin && n <= radixMax {
		keys = slices.Grow(keys, 2*n) // the keys, then radixSort's scratch
	}
	for i := range ws {
		b := math.Float32bits(ws[i].Dist2)
		if b > 0x7f800000 { // past +Inf: a sign bit set, or a NaN
			slices.SortFunc(ws, compare)
			return keys[:0]
		}
		keys = append(keys, uint64(b)<<32|uint64(i))
	}
	if n >= radixMin && n <= radixMax {
		spanSort(keys, keys[n:2*n])
	} else {
		slices.Sort(keys)
	}
	// keys[j]'s index is the want that goes to place j: follow each cycle
	// once, marking the places filled.
	const done = math.MaxUint64
	for i := range keys {
		if keys[i] == done {
			continue
		}
		tmp := ws[i]
		j := i
		for {
			k := int(uint32(keys[j]))
			keys[j] = done
			if k == i {
				ws[j] = tmp
				break
			}
			ws[j] = ws[k]
			j = k
		}
	}
	for i := 0; i < len(ws); {
		j := i + 1
		for j < len(ws) && ws[j].Dist2 == ws[i].Dist2 {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(ws[i:j], compare)
		}
		i = j
	}
	return keys
}

// radixSort's bounds: below radixMin, pdqsort (an insertion sort up to 12
// keys) is as fast or faster (BenchmarkSortKeys: 32 keys about even, 64 in
// less than half pdqsort's time); up to radixMax, its counts fit in uint16.
const (
	radixMin = 48
	radixMax = 1<<16 - 1
)

// radixSort sorts keys, whose low 32 bits are their indexes in ascending
// order (sortWants' keys), as slices.Sort does. A squared distance's top
// 16 bits (its exponent and 7 bits of mantissa: 128 steps an octave) tell
// nearly every pair of a step's shows apart, so keys are put in order of
// those by a stable radix sort of two 8-bit digits (no branch depends on
// a key, where a comparison sort mispredicts about one in two), then an
// insertion sort finishes the few keys that share them, in few moves: it
// gives up after 4 moves a key (keys crowded within one bucket, a ring of
// objects at one distance) and leaves them to slices.Sort. tmp is scratch
// of len(keys).
func radixSort(keys, tmp []uint64) {
	var counts [2][256]uint16
	for _, k := range keys {
		counts[0][uint8(k>>48)]++
		counts[1][uint8(k>>56)]++
	}
	n := len(keys)
	src, dst := keys, tmp[:n]
	for d := range 2 {
		c := &counts[d]
		shift := 48 + 8*uint(d)
		if int(c[uint8(src[0]>>shift)]) == n {
			continue // one digit for all: already in order by it
		}
		var at [256]uint16
		sum := uint16(0)
		for b := range c {
			at[b] = sum
			sum += c[b]
		}
		for _, k := range src {
			b := uint8(k >> shift)
			dst[at[b]] = k
			at[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
	insertionFinish(keys)
}

// insertionFinish sorts keys that a bucket sort put in order of their
// buckets: an insertion sort, which gives up after 4 moves a key (keys
// crowded within one bucket) and leaves them to slices.Sort.
func insertionFinish(keys []uint64) {
	n := len(keys)
	moves := 4 * n
	for i := 1; i < n; i++ {
		k := keys[i]
		j := i
		for ; j > 0 && keys[j-1] > k; j-- {
			keys[j] = keys[j-1]
		}
		keys[j] = k
		if moves -= i - j; moves < 0 {
			slices.Sort(keys)
			return
		}
	}
}

// spanBuckets bounds spanSort's buckets (its counts are on the stack).
const spanBuckets = 1024

// spanSort sorts keys as radixSort does (tmp is scratch of len(keys)), by
// one stable counting pass over buckets linear in the keys' distances
// between the least and the greatest, about two buckets a key, then the
// same insertion sort to finish (decision 0415). A step's shows lie in a
// ring a few meters deep (the objects its move brought within the cut),
// where radixSort's top 16 bits give ~60 buckets for ~65–120 keys and the
// insertion sort's moves, each a mispredicted exit of its loop, were most
// of the sort; a span's buckets leave a key alone in its bucket in most
// cases, so the insertion sort mostly compares once a key, and there is
// one counting pass, not two. Keys whose span cannot be bucketed (an
// infinite distance, all one distance), and more keys than two a bucket
// (a large Reconcile, where a bucket of several would make the insertion
// sort give up), go to radixSort, as do spans too small to divide.
func spanSort(keys, tmp []uint64) {
	n := len(keys)
	lo, hi := uint32(math.MaxUint32), uint32(0)
	for _, k := range keys {
		lo, hi = min(lo, uint32(k>>32)), max(hi, uint32(k>>32))
	}
	flo, fhi := math.Float32frombits(lo), math.Float32frombits(hi)
	nb := min(2*n, spanBuckets)
	// Not bucketed: too many keys, or a span grid.BucketScale refuses (all
	// at one distance, infinite, or too small to divide).
	scale, ok := grid.BucketScale(float32(nb), flo, fhi)
	if n > 2*spanBuckets || !ok {
		radixSort(keys, tmp)
		return
	}
	of := func(k uint64) int { return min(int((math.Float32frombits(uint32(k>>32))-flo)*scale), nb-1) }
	var at [spanBuckets]uint32
	for _, k := range keys {
		at[of(k)]++
	}
	sum := uint32(0)
	for b := range at[:nb] {
		at[b], sum = sum, sum+at[b]
	}
	tmp = tmp[:n]
	for _, k := range keys {
		b := of(k)
		tmp[at[b]] = k
		at[b]++
	}
	copy(keys, tmp)
	insertionFinish(keys)
}
