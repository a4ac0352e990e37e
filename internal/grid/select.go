package grid

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

// prefix reorders hs so that hs[:n] holds the longest prefix of hs in
// [Hit.Rank] order whose weights sum to at most limit, and returns n. It is a
// weighted quickselect: expected linear time, no sort, no allocation.
func prefix(hs []Hit, limit uint64) int {
	var total uint64
	for _, h := range hs {
		total += uint64(h.Weight)
	}
	if total <= limit {
		return len(hs)
	}
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
