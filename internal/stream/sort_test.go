package stream

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomWants returns n wants with unique ids: lone entities and chains
// (a root and its objects, at the root's distance), distances drawn from
// few values so that ties are common.
func randomWants(rng *rand.Rand, n int) []Want {
	ws := make([]Want, 0, n)
	id := uint32(1)
	for len(ws) < n {
		d := float32(rng.IntN(40)) * 2.5
		if rng.IntN(3) == 0 {
			d = rng.Float32() * 1e4
		}
		root := id
		id++
		chain := 0
		if rng.IntN(5) == 0 {
			chain = 1 + rng.IntN(4)
		}
		ws = append(ws, Want{ID: root, Rev: 1, Dist2: d, Chain: uint16(chain)})
		for k := range chain {
			ws = append(ws, Want{ID: id, Rev: 1, Dist2: d, Root: root, Depth: uint16(1 + k%2)})
			id++
		}
	}
	rng.Shuffle(len(ws), func(i, j int) { ws[i], ws[j] = ws[j], ws[i] })
	return ws
}

func TestSortWantsMatchesCompare(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var keys []uint64
	for round := range 500 {
		ws := randomWants(rng, rng.IntN(300))
		switch round % 50 {
		case 1: // a negative zero: sorted by compare alone
			if len(ws) > 0 {
				ws[0].Dist2 = float32(math.Copysign(0, -1))
			}
		case 2: // +Inf distances (no limit) order as their bits
			for i := range ws {
				if i%3 == 0 {
					ws[i].Dist2 = float32(math.Inf(1))
				}
			}
		}
		want := slices.Clone(ws)
		slices.SortFunc(want, compare)
		keys = sortWants(ws, keys)
		if !slices.Equal(ws, want) {
			for i := range ws {
				if ws[i] != want[i] {
					t.Fatalf("round %d: at %d of %d got %+v, want %+v", round, i, len(ws), ws[i], want[i])
				}
			}
		}
	}
}

// TestRadixSortMatchesSort: radixSort and spanSort order sortWants' keys
// (distance bits over ascending indexes) exactly as slices.Sort does, for
// distances spread over many exponents, within one (digits shared by every
// key, whose passes are skipped), with many ties, with +Inf (spanSort's
// fallback), and in a ring a few meters deep (a step's shows); spanSort
// also with more keys than its buckets, and crowded in a bucket (its
// insertion sort gives up).
func TestRadixSortMatchesSort(t *testing.T) {
	for _, sort := range []struct {
		name string
		f    func(keys, tmp []uint64)
	}{{"radixSort", radixSort}, {"spanSort", spanSort}} {
		t.Run(sort.name, func(t *testing.T) { testBucketSort(t, sort.f) })
	}
}

func testBucketSort(t *testing.T, sort func(keys, tmp []uint64)) {
	rng := rand.New(rand.NewPCG(9, 10))
	for round := range 720 {
		n := 1 + rng.IntN(1200)
		if round%10 == 9 {
			n = 2000 + rng.IntN(200) // around spanSort's most
		}
		keys := make([]uint64, n)
		tiny := []float32{1e-45, 1e-40, 1e-37}[round/7%3]
		for i := range keys {
			var d float32
			switch round % 7 {
			case 0:
				d = rng.Float32() * 9e4
			case 1:
				d = 1000 + rng.Float32()*10 // one exponent
			case 2:
				d = float32(rng.IntN(5)) // ties
			case 3:
				d = float32(math.Inf(1))
				if rng.IntN(2) == 0 {
					d = rng.Float32()
				}
			case 4:
				r := 84 + rng.Float32()*16 // a ring
				d = r * r
			case 5:
				d = 1 + rng.Float32()*1e-3 // a few buckets' worth of floats
				if i%3 == 0 {
					d = 1e4
				}
			case 6:
				d = float32(i%2) * tiny // a span too small to divide into buckets
			}
			keys[i] = uint64(math.Float32bits(d))<<32 | uint64(i)
		}
		want := slices.Clone(keys)
		slices.Sort(want)
		sort(keys, make([]uint64, n))
		if !slices.Equal(keys, want) {
			t.Fatalf("round %d (n %d): got %x, want %x", round, n, keys, want)
		}
	}
}

// BenchmarkSortKeys sorts the keys of a step's shows (130 as a uniform
// object step's, 500 as a hot spot's; distances up to 300 m) with
// radixSort, spanSort and, side by side, slices.Sort, sortWants' sort
// before decision 0383; and fewer, to place radixMin. Each sort takes the next of
// 256 sets of keys: one set sorted again and again would let the branch
// predictor learn pdqsort's branches, as a step's fresh shows do not.
func BenchmarkSortKeys(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	const sets = 256
	for _, n := range []int{16, 32, 64, 130, 500} {
		src := make([][]uint64, sets)
		for s := range src {
			src[s] = make([]uint64, n)
			for i := range src[s] {
				src[s][i] = uint64(math.Float32bits(rng.Float32()*9e4))<<32 | uint64(i)
			}
		}
		benchSorts(b, n, src)
	}
}

// BenchmarkSortRing sorts the keys of a step's shows as they are in the
// world: the objects a 16 m move brought within a cut of ~100 m, a ring
// 16 m deep, 130 and 270 keys (a step shows ~65 uniform, ~120 in hot spots),
// with radixSort, spanSort and slices.Sort side by side (decision 0415),
// each sort the next of 256 sets of keys.
func BenchmarkSortRing(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	const sets = 256
	for _, n := range []int{130, 270} {
		src := make([][]uint64, sets)
		for s := range src {
			src[s] = make([]uint64, n)
			for i := range src[s] {
				r := 84 + rng.Float32()*16
				src[s][i] = uint64(math.Float32bits(r*r))<<32 | uint64(i)
			}
		}
		benchSorts(b, n, src)
	}
}

// benchSorts runs radixSort, spanSort and slices.Sort side by side on n
// keys, each sort the next of the sets in src.
func benchSorts(b *testing.B, n int, src [][]uint64) {
	keys, tmp := make([]uint64, n), make([]uint64, n)
	for _, sort := range []struct {
		name string
		f    func(keys, tmp []uint64)
	}{{"radix", radixSort}, {"span", spanSort}, {"pdqsort", func(keys, _ []uint64) { slices.Sort(keys) }}} {
		b.Run(fmt.Sprintf("%d/%s", n, sort.name), func(b *testing.B) {
			b.ReportAllocs()
			s := 0
			for b.Loop() {
				copy(keys, src[s%len(src)])
				sort.f(keys, tmp)
				s++
			}
		})
	}
}

// BenchmarkSortWants sorts a step's shows (200, as a hot-spot object
// step's) with sortWants and, side by side, with compare.
func BenchmarkSortWants(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	src := randomWants(rng, 200)
	for i := range src {
		src[i].Dist2 = rng.Float32() * 1e4 // distinct, as a step's shows
	}
	ws := make([]Want, len(src))
	b.Run("keys", func(b *testing.B) {
		var keys []uint64
		b.ReportAllocs()
		for b.Loop() {
			copy(ws, src)
			keys = sortWants(ws, keys)
		}
	})
	b.Run("compare", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			copy(ws, src)
			slices.SortFunc(ws, compare)
		}
	})
}
