package grid

import (
	"math"
	"math/rand/v2"
	"testing"
)

// BenchmarkSparseStep measures one step of a walker in a sparse grid, the
// world's vehicles (1000 over 8 km, stream distance 300 m, 64 m cells: one
// cell in sixteen holds one), 4 m steps (the entity re-query): most cells
// a step's scan reaches are empty (decision 0306). Two ways: diff, a Diff
// from the last point; shell, DiffIn with the views' skin (14 m), which
// scans only to build a shell.
func BenchmarkSparseStep(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	g := New(64)
	for i := range 1000 {
		g.Insert(uint32(i), Vec{(rng.Float32() - 0.5) * 8000, (rng.Float32() - 0.5) * 8000, 10}, 300)
	}
	const walkers, step, skin = 1000, 4, 14
	at, dirs := make([]Vec, walkers), make([]Vec, walkers)
	for i := range at {
		at[i] = Vec{(rng.Float32() - 0.5) * 7000, (rng.Float32() - 0.5) * 7000, 10}
		a := float64(i) * 2.39996
		dirs[i] = Vec{step * float32(math.Cos(a)), step * float32(math.Sin(a)), 0}
	}
	for _, mode := range []string{"diff", "shell"} {
		b.Run(mode, func(b *testing.B) {
			pts := append([]Vec(nil), at...)
			shells := make([]Shell, walkers)
			var s Step
			b.ReportAllocs()
			k := 0
			for b.Loop() {
				i := k % walkers
				k++
				from := pts[i]
				to := Vec{from.X + dirs[i].X, from.Y + dirs[i].Y, from.Z}
				if mode == "diff" {
					g.Diff(from, to, NoLimit, AllCut, nil, &s)
				} else {
					g.DiffIn(&shells[i], skin, from, to, NoLimit, AllCut, nil, &s)
				}
				pts[i] = to
			}
		})
	}
}
