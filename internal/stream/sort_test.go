package stream

import (
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
