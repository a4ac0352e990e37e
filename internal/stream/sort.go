package stream

import (
	"math"
	"slices"
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
func sortWants(ws []Want, keys []uint64) []uint64 {
	if len(ws) < 2 {
		return keys
	}
	keys = keys[:0]
	for i := range ws {
		b := math.Float32bits(ws[i].Dist2)
		if b > 0x7f800000 { // past +Inf: a sign bit set, or a NaN
			slices.SortFunc(ws, compare)
			return keys
		}
		keys = append(keys, uint64(b)<<32|uint64(i))
	}
	slices.Sort(keys)
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
