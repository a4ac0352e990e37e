package grid

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"dlmp/internal/threadcpu"
)

// A ring for cut answers, measured against the held step (decision 0344):
// a prototype, for the benchmark only. A ring built at c keeps, for a ball
// of radius skin around c, the entities nearer to c than a that cover the
// whole ball (their count, weight and fingerprint) and, contiguous, every
// other entity nearer than b that covers some point of it. A step between
// two points of the ball whose old and new cuts lie between a and b (each
// widened by the point's distance to c) is told from the ring's entities
// alone; any other goes to the grid.
type protoRing struct {
	c      Vec
	skin   float32
	a, b   float32
	n      int
	w, sum uint64
	p      []pos
	m      []meta
	ok     bool
	sel    []Hit
	shown  []bool
	tmp    []Hit // the selection's scratch
}

// build fills r at c for cuts within band meters of dCut (the cut's
// distance at c, as far as the caller knows).
func (r *protoRing) build(g *Grid, c Vec, dCut, skin, band float32, sum func(key, rev uint32) uint64) {
	r.c, r.skin, r.ok = c, skin, true
	r.a, r.b = max(dCut-skin-band, 0), dCut+skin+band
	r.n, r.w, r.sum = 0, 0, 0
	r.p, r.m = r.p[:0], r.m[:0]
	a2, b2 := r.a*r.a, r.b*r.b
	reach := r.b + skin + slack
	x0, x1, y0, y1 := g.axis(c.X-reach), g.axis(c.X+reach), g.axis(c.Y-reach), g.axis(c.Y+reach)
	for cy := y0; cy <= y1; cy++ {
		for cx := x0; cx <= x1; cx++ {
			cl := g.ringCell(cx, cy)
			if cl == nil {
				continue
			}
			for i := range cl.p {
				e := &cl.p[i]
				dx, dy, dz := e.x-c.X, e.y-c.Y, e.z-c.Z
				d2 := dx*dx + dy*dy + dz*dz
				if d2 > b2 {
					continue
				}
				d := float32(math.Sqrt(float64(d2)))
				if d2 < a2 && (d+skin+1)*(d+skin+1) <= e.r2 {
					m := &cl.m[i]
					r.n++
					r.w += uint64(m.weight)
					r.sum += sum(m.key, m.rev)
					continue
				}
				if r2 := e.r2; (d-skin-1)*(d-skin-1) <= r2 || d <= skin+1 {
					r.p, r.m = append(r.p, *e), append(r.m, cl.m[i])
				}
			}
		}
	}
}

// ringCell returns the cell (cx, cy), nil if its block is empty.
func (g *Grid) ringCell(cx, cy int) *cell {
	bi, in := g.blockOf(cx, cy)
	b := g.blocks[bi]
	if b == nil {
		return nil
	}
	return &b[in]
}

// step tells the step from..to with the old cut into s as Diff does (Was*,
// Enter, Leave, Cut), or reports false.
func (r *protoRing) step(from, to Vec, limit int, cut uint64, sum func(key, rev uint32) uint64, s *Step) bool {
	if !r.ok || Dist2(r.c, from) > r.skin*r.skin || Dist2(r.c, to) > r.skin*r.skin || cut == AllCut || cut == 0 {
		return false
	}
	df0 := float32(math.Sqrt(float64(Dist2(r.c, from))))
	dt0 := float32(math.Sqrt(float64(Dist2(r.c, to))))
	oldD := float32(math.Sqrt(float64(math.Float32frombits(uint32((cut - 1) >> 32)))))
	if oldD <= r.a+df0+1 || oldD >= r.b-df0-1 {
		return false
	}
	s.Enter, s.Leave = s.Enter[:0], s.Leave[:0]
	s.WasN, s.WasWeight, s.WasSum = r.n, r.w, r.sum
	wI := r.w
	r.sel, r.shown = r.sel[:0], r.shown[:0]
	ps, ms := r.p, r.m[:len(r.p)]
	for i := range ps {
		e := &ps[i]
		dx, dy, dz := e.x-to.X, e.y-to.Y, e.z-to.Z
		dt := dx*dx + dy*dy + dz*dz
		dx, dy, dz = e.x-from.X, e.y-from.Y, e.z-from.Z
		df := dx*dx + dy*dy + dz*dz
		covT, covF := dt <= e.r2, df <= e.r2
		if !covT && !covF {
			continue
		}
		m := &ms[i]
		shown := covF && uint64(math.Float32bits(df))<<32|uint64(m.key) < cut
		if shown {
			s.WasN++
			s.WasWeight += uint64(m.weight)
			s.WasSum += sum(m.key, m.rev)
		}
		h := Hit{Key: m.key, Rev: m.rev, Dist2: dt, Weight: m.weight}
		if covT {
			r.sel = append(r.sel, h)
			r.shown = append(r.shown, shown)
		} else if shown {
			s.Leave = append(s.Leave, h)
		}
	}
	if wI > uint64(limit) {
		return false
	}
	// The prefix of the ring's hits that fits after the inner part, in rank
	// order: its cut is the first refused hit's rank.
	keep := uint64(limit) - wI
	var wSel uint64
	for i := range r.sel {
		wSel += uint64(r.sel[i].Weight)
	}
	if wSel <= keep {
		return false // not cut within the ring: what is past b may count
	}
	r.tmp = append(r.tmp[:0], r.sel...)
	sel := r.tmp
	n := SelectNearest(sel, int(keep))
	s.Cut = AllCut
	for _, h := range sel[n:] {
		s.Cut = min(s.Cut, h.Rank())
	}
	newD := float32(math.Sqrt(float64(math.Float32frombits(uint32(s.Cut >> 32)))))
	if newD <= r.a+dt0+1 || newD >= r.b-dt0-1 {
		return false
	}
	for i, h := range r.sel {
		in := h.Rank() < s.Cut
		switch {
		case in && !r.shown[i]:
			s.Enter = append(s.Enter, h)
		case !in && r.shown[i]:
			s.Leave = append(s.Leave, h)
		}
	}
	return true
}

// TestProtoRingMatchesDiff: the prototype's steps equal Diff's, so that its
// figures are those of an exact step.
func TestProtoRingMatchesDiff(t *testing.T) {
	g, _ := ringWorld()
	rng := rand.New(rand.NewPCG(12, 13))
	const limit = 1000
	var r protoRing
	var s, d Step
	told := 0
	for range 200 {
		from := Vec{(rng.Float32() - 0.5) * 2000, (rng.Float32() - 0.5) * 2000, 10}
		a := rng.Float64() * 2 * math.Pi
		to := Vec{from.X + 16*float32(math.Cos(a)), from.Y + 16*float32(math.Sin(a)), 10}
		hs := g.Nearest(from, limit, nil)
		cut := CutOf(hs, limit)
		r.build(g, from, float32(math.Sqrt(float64(math.Float32frombits(uint32((cut-1)>>32))))), 48, 8, testSum)
		if !r.step(from, to, limit, cut, testSum, &s) {
			continue
		}
		told++
		if !g.Diff(from, to, limit, cut, testSum, &d) {
			t.Fatal("Diff failed")
		}
		if s.WasN != d.WasN || s.WasSum != d.WasSum || s.Cut != d.Cut || len(s.Enter) != len(d.Enter) || len(s.Leave) != len(d.Leave) {
			t.Fatalf("ring: was %d %x cut %x enter %d leave %d; Diff: %d %x %x %d %d",
				s.WasN, s.WasSum, s.Cut, len(s.Enter), len(s.Leave), d.WasN, d.WasSum, d.Cut, len(d.Enter), len(d.Leave))
		}
	}
	if told < 150 {
		t.Fatalf("the ring told %d of 200 steps, want most", told)
	}
}

// ringWorld is BenchmarkHeldStep's uniform object world.
func ringWorld() (*Grid, float32) {
	rng := rand.New(rand.NewPCG(8, 9))
	g := New(64)
	for i := range 250_000 {
		g.Insert(uint32(i), Vec{(rng.Float32() - 0.5) * 4000, (rng.Float32() - 0.5) * 4000, rng.Float32() * 20}, 300)
	}
	return g, 2000
}

// BenchmarkRingStep: walkers' 16 m steps of a 1000-nearest answer told by
// the held step (DiffIn, skin 0) or by a ring of skin 48 m built ahead of
// the walker (as the blips' rings are), its builds counted in the steps.
func BenchmarkRingStep(b *testing.B) {
	g, spread := ringWorld()
	const limit, walkers, run, step = 1000, 256, 12, 16
	rng := rand.New(rand.NewPCG(10, 11))
	starts, dirs := make([]Vec, walkers), make([]Vec, walkers)
	for i := range starts {
		starts[i] = Vec{(rng.Float32() - 0.5) * spread, (rng.Float32() - 0.5) * spread, 10}
		a := float64(i) * 2.39996
		dirs[i] = Vec{step * float32(math.Cos(a)), step * float32(math.Sin(a)), 0}
	}
	at := func(i, k int) Vec {
		return Vec{starts[i].X + float32(k)*dirs[i].X, starts[i].Y + float32(k)*dirs[i].Y, starts[i].Z}
	}
	for _, mode := range []string{"held", "ring"} {
		b.Run(mode, func(b *testing.B) {
			const skin, band = 48, 8
			cuts := make([]uint64, walkers)
			shells := make([]Shell, walkers)
			rings := make([]protoRing, walkers)
			var buf []Hit
			for i := range starts {
				buf = g.Nearest(at(i, 0), limit, buf[:0])
				cuts[i] = CutOf(buf, limit)
			}
			var s Step
			b.ReportAllocs()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var spent, building time.Duration
			k, steps, builds, fell := 0, 0, 0, 0
			for b.Loop() {
				i, j := k%walkers, k/walkers%run
				k++
				from, to := at(i, j), at(i, j+1)
				if j == run-1 {
					to = at(i, 0)
					buf = g.Nearest(to, limit, buf[:0])
					cuts[i], shells[i], rings[i].ok = CutOf(buf, limit), Shell{}, false
					continue
				}
				steps++
				t0 := threadcpu.Spent()
				ok := false
				if mode == "ring" {
					r := &rings[i]
					if !r.ok || Dist2(r.c, to) > skin*skin || Dist2(r.c, from) > skin*skin {
						// Ahead of to, as far as from stays within the skin.
						c := Vec{from.X + dirs[i].X*(skin-1)/step, from.Y + dirs[i].Y*(skin-1)/step, from.Z}
						dCut := float32(math.Sqrt(float64(math.Float32frombits(uint32((cuts[i] - 1) >> 32)))))
						r.build(g, c, dCut, skin, band, testSum)
						builds++
						building += threadcpu.Spent() - t0
					}
					ok = r.step(from, to, limit, cuts[i], testSum, &s)
					if !ok {
						fell++
					}
				}
				if !ok {
					ok = g.DiffIn(&shells[i], 0, from, to, limit, cuts[i], testSum, &s)
				}
				spent += threadcpu.Spent() - t0
				if !ok {
					buf = g.Nearest(to, limit, buf[:0])
					cuts[i] = CutOf(buf, limit)
					continue
				}
				cuts[i] = s.Cut
			}
			b.ReportMetric(float64(spent.Nanoseconds())/float64(max(steps, 1)), "cpu-ns/step")
			b.ReportMetric(float64(builds)/float64(max(steps, 1)), "builds/step")
			b.ReportMetric(float64(building.Nanoseconds())/float64(max(builds, 1)), "cpu-ns/build")
			b.ReportMetric(float64(fell)/float64(max(steps, 1)), "fallbacks/step")
			var held float64
			for i := range rings {
				held += float64(len(rings[i].p))
			}
			b.ReportMetric(held/walkers, "ring-entities")
		})
	}
}
