package grid

import (
	"dlmp/internal/threadcpu"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
)

// BenchmarkDiff measures one 10 m step of a query point over the objects
// world of BenchmarkNearest (200,000 over 5.4 km, radii 100/200/300 m,
// uncut by the 1000 limit) and a hot spot (the same objects plus 20,000
// within 300 m of the origin, as in the stream's benchmark world: the 1000
// nearest within ~65 m), side by side:
//
//   - nearest: the answer at the new point, listed (what a step cost before);
//   - diff: Diff from the old point, given the old answer's cut (with a
//     fingerprint sum, as a view checks it);
//   - shell: DiffIn, each of the 512 points keeping its Shell (skin 35 m).
func BenchmarkDiff(b *testing.B) {
	ps, rs, qs := benchWorld(200_000, 5400, func(r *rand.Rand) float32 { return float32(100 * (1 + r.IntN(3))) })
	for _, hot := range []bool{false, true} {
		g := New(64)
		for i, p := range ps {
			g.Insert(uint32(i), p, rs[i])
		}
		name := "uniform"
		starts := qs
		if hot {
			name = "hot"
			rng := rand.New(rand.NewPCG(3, 4))
			for i := range 20_000 {
				a, d := rng.Float64()*2*math.Pi, 300*math.Sqrt(rng.Float64())
				g.Insert(uint32(len(ps)+i), Vec{float32(d * math.Cos(a)), float32(d * math.Sin(a)), rng.Float32() * 60}, float32(100*(1+rng.IntN(3))))
			}
			starts = make([]Vec, len(qs))
			for i := range starts {
				a, d := rng.Float64()*2*math.Pi, 150*math.Sqrt(rng.Float64())
				starts[i] = Vec{float32(d * math.Cos(a)), float32(d * math.Sin(a)), 10}
			}
		}
		g.Compact()
		const limit, step, skin = 1000, 10, 35
		// Each point walks its own straight line, 10 m a step; 8 steps,
		// then back to its start.
		dirs := make([]Vec, len(starts))
		for i := range dirs {
			a := float64(i) * 2.39996 // golden angle: spread directions
			dirs[i] = Vec{step * float32(math.Cos(a)), step * float32(math.Sin(a)), 0}
		}
		at := func(i, k int) Vec {
			return Vec{starts[i].X + float32(k)*dirs[i].X, starts[i].Y + float32(k)*dirs[i].Y, starts[i].Z}
		}
		for _, mode := range []string{"nearest", "diff", "shell"} {
			b.Run(name+"/"+mode, func(b *testing.B) {
				cuts := make([]uint64, len(starts))
				shells := make([]Shell, len(starts))
				var buf []Hit
				for i := range starts {
					buf = g.Nearest(at(i, 0), limit, buf[:0])
					cuts[i] = CutOf(buf, limit)
				}
				var s Step
				b.ReportAllocs()
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				cpu0 := threadcpu.Spent()
				n, failed := 0, 0
				var shellNs, otherNs time.Duration
				var shellN, otherN int
				for b.Loop() {
					i, k := n%len(starts), n/len(starts)%8
					n++
					from, to := at(i, k), at(i, k+1)
					if k == 7 { // back to the start: a jump, listed
						to = at(i, 0)
					}
					var ok bool
					switch {
					case mode == "nearest" || k == 7:
					case mode == "diff":
						ok = g.Diff(from, to, limit, cuts[i], testSum, &s)
					default:
						t0 := time.Now()
						ok = g.DiffIn(&shells[i], skin, from, to, limit, cuts[i], testSum, &s)
						if s.Shell {
							shellNs += time.Since(t0)
							shellN++
						} else {
							otherNs += time.Since(t0)
							otherN++
						}
					}
					if ok {
						cuts[i] = s.Cut
						continue
					}
					if mode != "nearest" && k != 7 {
						failed++
					}
					buf = g.Nearest(to, limit, buf[:0])
					cuts[i] = CutOf(buf, limit)
				}
				b.ReportMetric(float64((threadcpu.Spent()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/step")
				b.ReportMetric(float64(failed)/float64(b.N), "listed/step")
				if mode == "shell" {
					b.ReportMetric(float64(shellNs.Nanoseconds())/float64(max(shellN, 1)), "ns/shell-step")
					b.ReportMetric(float64(otherNs.Nanoseconds())/float64(max(otherN, 1)), "ns/build-step")
					b.ReportMetric(float64(shellN)/float64(shellN+otherN), "shell-share")
				}
			})
		}
	}
}
