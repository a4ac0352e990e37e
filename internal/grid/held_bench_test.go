package grid

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"dlmp/internal/threadcpu"
)

// BenchmarkHeldStep measures one step of a walker whose answer is cut, in
// two worlds of issue 4's benchmark, side by side:
//
//   - objects: one object per 64 m², stream distance 300 m, over 4 km
//     (250,000; the world's are 1,000,000 over 8 km), 64 m cells, the 1000
//     nearest (they end ~160 m away), 16 m steps (the object re-query);
//   - hot: the same with a tenth of them within 300 m of the origin (the
//     world's hot spots: ~300 objects a cell there), walkers within 150 m;
//   - world: the objects of the world's benchmark, 1,000,000 over 8 km (32
//     MB of grid entries: the scanned cells are mostly not in the cache);
//   - blips: 10,000 over 8 km with no distance limit, 128 m cells, the 100
//     nearest (~450 m), 7 m steps (a runner's second between two slow
//     passes);
//
// and two ways:
//
//   - diff: Diff from the old point and cut (the scan reads and counts the
//     old answer);
//   - held: DiffIn with skin 0, each walker keeping its Shell, so that
//     every step but the first starts from the answer the last one held
//     (decision 0265);
//   - held-cold: held without the pass that loads the scanned cells'
//     lines before their scan (decision 0368), side by side.
//
// cpu-ns/step is the thread's CPU time in the steps alone; every 12th op
// lists the walker's answer at its start again (not counted).
func BenchmarkHeldStep(b *testing.B) {
	for _, wd := range []struct {
		name         string
		n            int
		side, radius float32
		cell         float32
		limit        int
		step         float32
		hot          bool
	}{
		{"objects", 250_000, 4000, 300, 64, 1000, 16, false},
		{"world", 1_000_000, 8000, 300, 64, 1000, 16, false},
		{"hot", 250_000, 4000, 300, 64, 1000, 16, true},
		{"blips", 10_000, 8000, float32(math.Inf(1)), 128, 100, 7, false},
	} {
		rng := rand.New(rand.NewPCG(8, 9))
		g := New(wd.cell)
		spread := wd.side / 2
		for i := range wd.n {
			p := Vec{(rng.Float32() - 0.5) * wd.side, (rng.Float32() - 0.5) * wd.side, rng.Float32() * 20}
			if wd.hot && i%10 == 0 { // a hot spot: 25,000 within 300 m
				a, d := rng.Float64()*2*math.Pi, 300*math.Sqrt(rng.Float64())
				p = Vec{float32(d * math.Cos(a)), float32(d * math.Sin(a)), 10}
				spread = 300 // walkers start within 150 m of its center
			}
			g.Insert(uint32(i), p, wd.radius)
		}
		benchHeld(b, wd.name, g, wd.limit, wd.step, spread)
	}
}

func benchHeld(b *testing.B, name string, g *Grid, limit int, step, spread float32) {
	const walkers, run = 256, 12 // steps a walker takes, then back to its start
	rng := rand.New(rand.NewPCG(10, 11))
	starts, dirs := make([]Vec, walkers), make([]Vec, walkers)
	for i := range starts {
		starts[i] = Vec{(rng.Float32() - 0.5) * spread, (rng.Float32() - 0.5) * spread, 10}
		a := float64(i) * 2.39996 // golden angle: spread directions
		dirs[i] = Vec{step * float32(math.Cos(a)), step * float32(math.Sin(a)), 0}
	}
	at := func(i, k int) Vec {
		return Vec{starts[i].X + float32(k)*dirs[i].X, starts[i].Y + float32(k)*dirs[i].Y, starts[i].Z}
	}
	for _, mode := range []string{"diff", "held", "held-cold"} {
		b.Run(name+"/"+mode, func(b *testing.B) {
			cuts := make([]uint64, walkers)
			shells := make([]Shell, walkers)
			var buf []Hit
			for i := range starts {
				buf = g.Nearest(at(i, 0), limit, buf[:0])
				cuts[i] = CutOf(buf, limit)
			}
			s := Step{cold: mode == "held-cold"}
			b.ReportAllocs()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var spent time.Duration // in the steps alone (not the listings)
			k, steps, held, listed := 0, 0, 0, 0
			var rc readCount
			for b.Loop() {
				i, j := k%walkers, k/walkers%run
				k++
				from, to := at(i, j), at(i, j+1)
				if j == run-1 { // back to the start: listed
					to = at(i, 0)
					buf = g.Nearest(to, limit, buf[:0])
					cuts[i], shells[i] = CutOf(buf, limit), Shell{}
					continue
				}
				steps++
				var ok bool
				t0 := threadcpu.Spent()
				if mode == "diff" {
					ok = g.Diff(from, to, limit, cuts[i], testSum, &s)
				} else {
					ok = g.DiffIn(&shells[i], 0, from, to, limit, cuts[i], testSum, &s)
				}
				spent += threadcpu.Spent() - t0
				if s.Held {
					held++
					rc.add(&s)
				}
				if !ok {
					listed++
					buf = g.Nearest(to, limit, buf[:0])
					cuts[i] = CutOf(buf, limit)
					continue
				}
				cuts[i] = s.Cut
			}
			b.ReportMetric(float64(spent.Nanoseconds())/float64(max(steps, 1)), "cpu-ns/step")
			b.ReportMetric(float64(held)/float64(max(steps, 1)), "held-share")
			b.ReportMetric(float64(listed)/float64(max(steps, 1)), "listed-share")
			rc.report(b, held)
		})
	}
}

// readCount counts, over held steps, what a step's scan read (its last
// scan's runs: a widened step's second), for the benchmarks' metrics.
type readCount struct {
	cells, runs, read, kept, band, widened int
}

func (rc *readCount) add(s *Step) {
	rc.cells += len(s.cells)
	rc.runs += len(s.runs)
	for _, r := range s.runs {
		rc.read += int(r.end - r.start)
	}
	rc.kept += len(s.cand)
	if s.Widened {
		rc.widened++
	}
	rc.band += len(s.sel)
}

func (rc *readCount) report(b *testing.B, steps int) {
	n := float64(max(steps, 1))
	b.ReportMetric(float64(rc.cells)/n, "cells/step")
	b.ReportMetric(float64(rc.runs)/n, "runs/step")
	b.ReportMetric(float64(rc.read)/n, "read/step")
	b.ReportMetric(float64(rc.kept)/n, "kept/step")
	b.ReportMetric(float64(rc.band)/n, "band/step")
	b.ReportMetric(float64(rc.widened)/n, "widened/step")
}
