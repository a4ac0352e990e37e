package grid

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"dlmp/internal/threadcpu"
)

// BenchmarkShellLead measures the steps of walkers keeping a Shell over the
// pickups of issue 4's benchmark (100,000 of radius 90 m over 8 km, 64 m
// cells, every pickup covering the point: no limit), 4.2 m a step (the
// pickup re-query at a runner's pace), skin 14 m (the world's pickupSkin),
// with the shell's ball centered on the point (lead 0, as before decision
// 0358) and ahead of it (shellLead), side by side, for three walks:
//
//   - straight: each walker keeps its direction;
//   - turning: each step turns by up to 90° either way, at random;
//   - pacing: each walker turns back every 6 steps (25 m).
//
// builds/step is the share of steps that scanned the grid (and built the
// shell again) instead of reading the shell's band: it does not depend on
// the machine's load, cpu-ns/step does.
func BenchmarkShellLead(b *testing.B) {
	const (
		n, side, radius        = 100_000, 8000, 90
		walkers, stepLen, skin = 512, 4.2, 14
	)
	rng := rand.New(rand.NewPCG(21, 22))
	g := New(64)
	for i := range n {
		g.Insert(uint32(i), Vec{(rng.Float32() - 0.5) * side, (rng.Float32() - 0.5) * side, rng.Float32() * 20}, radius)
	}
	g.Compact()
	lead := shellLead
	defer func() { shellLead = lead }()
	for _, walk := range []string{"straight", "turning", "pacing"} {
		for _, mode := range []struct {
			name string
			lead float32
		}{{"centered", 0}, {"ahead", lead}} {
			b.Run(walk+"/"+mode.name, func(b *testing.B) {
				shellLead = mode.lead
				wr := rand.New(rand.NewPCG(23, 24))
				pos := make([]Vec, walkers)
				ang := make([]float64, walkers)
				shells := make([]Shell, walkers)
				for i := range pos {
					pos[i] = Vec{(wr.Float32() - 0.5) * side * 0.9, (wr.Float32() - 0.5) * side * 0.9, 10}
					ang[i] = wr.Float64() * 2 * math.Pi
				}
				var s Step
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				var builds, steps int
				count := make([]int, walkers)
				k := 0
				b.ReportAllocs()
				cpu0 := threadcpu.Spent()
				for b.Loop() {
					i := k % walkers
					k++
					switch walk {
					case "turning":
						ang[i] += (wr.Float64() - 0.5) * math.Pi
					case "pacing":
						if count[i]++; count[i]%6 == 0 {
							ang[i] += math.Pi
						}
					}
					from := pos[i]
					to := Vec{from.X + stepLen*float32(math.Cos(ang[i])), from.Y + stepLen*float32(math.Sin(ang[i])), from.Z}
					if to.X < -side/2 || to.X > side/2 || to.Y < -side/2 || to.Y > side/2 {
						ang[i] += math.Pi // off the edge: back
						to = from
					}
					if !g.DiffIn(&shells[i], skin, from, to, NoLimit, AllCut, testSum, &s) {
						b.Fatal("an uncut step was refused")
					}
					pos[i] = to
					if k > walkers { // the first step of each walker builds
						steps++
						if !s.Shell {
							builds++
						}
					}
				}
				b.ReportMetric(float64((threadcpu.Spent()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/step")
				b.ReportMetric(float64(builds)/float64(max(steps, 1)), "builds/step")
			})
		}
	}
}
