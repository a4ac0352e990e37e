package grid

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// TestBandCutMatchesSort checks bandCut against the cut read off a sort:
// the Rank of the first hit, in Rank order, at which the running weight
// passes the limit. Bands of 0 to 600 hits within [lo2, hi2], with ties
// of distance (the key decides), weights of chains, limits anywhere from
// none to all of them, hits at both edges, an empty span (lo2 = hi2) and
// spans that cannot be bucketed (+Inf); bandCut must not reorder s.sel.
func TestBandCutMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var s Step
	bucketed := 0 // cases whose cut fell in a bucket of several hits
	for i := range 3000 {
		n := rng.IntN(600)
		lo, hi := float32(rng.IntN(200)), float32(0)
		hi = lo + float32(rng.IntN(3))*rng.Float32()*50 // 0: lo2 = hi2
		lo2, hi2 := lo*lo, hi*hi
		if i%100 == 0 {
			hi2 = float32(math.Inf(1))
		}
		keys := rng.Perm(n + 1)
		hs := make([]Hit, n)
		for j := range hs {
			d := lo + (hi-lo)*rng.Float32()
			switch rng.IntN(8) {
			case 0:
				d = lo
			case 1:
				d = hi
			case 2:
				d = lo + (hi-lo)*float32(rng.IntN(4))/4 // ties
			}
			d2 := min(max(d*d, lo2), hi2)
			hs[j] = Hit{Key: uint32(keys[j]), Dist2: d2, Weight: 1 + uint32(rng.IntN(2)*rng.IntN(5))}
		}
		var total uint64
		for _, h := range hs {
			total += uint64(h.Weight)
		}
		limit := uint64(rng.IntN(int(total) + 2))
		want := slices.Clone(hs)
		sortHits(want)
		wantCut, w := uint64(AllCut), uint64(0)
		for _, h := range want {
			if w += uint64(h.Weight); w > limit {
				wantCut = h.Rank()
				break
			}
		}
		s.sel = append(s.sel[:0], hs...)
		got, picked := s.bandCut(limit, lo2, hi2)
		if got != wantCut {
			t.Fatalf("case %d: %d hits in [%v, %v], limit %d of %d: got cut %#x, want %#x", i, n, lo2, hi2, limit, total, got, wantCut)
		}
		if !slices.Equal(s.sel, hs) {
			t.Fatalf("case %d: bandCut reordered the band", i)
		}
		if picked > 1 && picked < n {
			bucketed++
		}
	}
	if bucketed < 500 {
		t.Fatalf("%d cases picked among several hits of a bucket, want ≥ 500 (the pick is not tested)", bucketed)
	}
}

// BenchmarkBandCut: the cut of a held step's band (decision 0414), the
// band's buckets against the quickselect of the whole band (SelectNearest,
// then the least Rank refused), over 256 different bands of n hits in a
// 6 m annulus around 100 m (a uniform step's band is ~110 hits, a hot
// spot's ~240), the limit mid-band, so that the predictor cannot learn one.
func BenchmarkBandCut(b *testing.B) {
	for _, n := range []int{110, 240} {
		rng := rand.New(rand.NewPCG(9, uint64(n)))
		const sets = 256
		lo, hi := float32(97), float32(103)
		bands := make([][]Hit, sets)
		for i := range bands {
			for range n {
				d := lo + (hi-lo)*rng.Float32()
				bands[i] = append(bands[i], Hit{Key: uint32(rng.Uint32()), Dist2: d * d, Weight: 1})
			}
		}
		limit := uint64(n / 2)
		var s Step
		for _, c := range []struct {
			name string
			cut  func() uint64
		}{
			{"quickselect", func() uint64 {
				k := SelectNearest(s.sel, int(limit))
				cut := uint64(AllCut)
				for _, h := range s.sel[k:] {
					cut = min(cut, h.Rank())
				}
				return cut
			}},
			{"buckets", func() uint64 {
				cut, _ := s.bandCut(limit, lo*lo, hi*hi)
				return cut
			}},
		} {
			b.Run("n="+strconv.Itoa(n)+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				var sink uint64
				i := 0
				for b.Loop() {
					s.sel = append(s.sel[:0], bands[i%sets]...)
					i++
					sink += c.cut()
				}
				_ = sink
			})
		}
	}
}
