package grid

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestWarmPassChangesNothing walks steps through a compacted world of
// crowded cells (sub-square runs) and sparse ones twice, with and without
// the pass that loads the scanned runs and the shell's cells first
// (decision 0368): held steps of a cut answer, and steps of an uncut one
// with a shell (filled after the pass, then told from it). Every step must
// tell the same change, and only the warm walk loads anything.
func TestWarmPassChangesNothing(t *testing.T) {
	for _, m := range []struct {
		name  string
		limit int
		skin  float32
	}{{"held", 1000, 0}, {"shell", NoLimit, 25}} {
		t.Run(m.name, func(t *testing.T) { testWarmPass(t, m.limit, m.skin) })
	}
}

func testWarmPass(t *testing.T, limit int, skin float32) {
	rng := rand.New(rand.NewPCG(21, 22))
	g := New(64)
	for key := range uint32(20_000) {
		p := Vec{rng.Float32()*1600 - 800, rng.Float32()*1600 - 800, rng.Float32() * 20}
		if key%3 == 0 { // a hot spot: cells of several hundred entities
			a, d := rng.Float64()*2*math.Pi, 120*math.Sqrt(rng.Float64())
			p = Vec{float32(d * math.Cos(a)), float32(d * math.Sin(a)), 10}
		}
		g.Insert(key, p, 300)
	}
	g.Compact()
	type told struct {
		enter, leave          []Hit
		cut                   uint64
		wasN, held, shell, ok bool
	}
	walk := func(cold bool) ([]told, uint32) {
		s := Step{cold: cold}
		var sh Shell
		var out []told
		for w := range 8 {
			from := Vec{float32(w)*40 - 160, float32(w)*25 - 100, 10}
			cut := CutOf(g.Nearest(from, limit, nil), limit)
			for k := range 12 {
				a := float64(w) + float64(k)*0.3
				to := Vec{from.X + 16*float32(math.Cos(a)), from.Y + 16*float32(math.Sin(a)), 10}
				ok := g.DiffIn(&sh, skin, from, to, limit, cut, testSum, &s)
				out = append(out, told{slices.Clone(s.Enter), slices.Clone(s.Leave), s.Cut, s.WasN > 0, s.Held, s.Shell, ok})
				if !ok {
					cut = CutOf(g.Nearest(to, limit, nil), limit)
				} else {
					cut = s.Cut
				}
				from = to
			}
		}
		return out, s.warm
	}
	warm, loaded := walk(false)
	cold, coldLoaded := walk(true)
	if loaded == 0 || coldLoaded != 0 {
		t.Fatalf("loads summed: warm %d, cold %d; want warm > 0, cold 0", loaded, coldLoaded)
	}
	held, shelled := 0, 0
	for i := range warm {
		a, b := warm[i], cold[i]
		if a.ok != b.ok || a.cut != b.cut || a.held != b.held || a.shell != b.shell || a.wasN != b.wasN || !slices.Equal(a.enter, b.enter) || !slices.Equal(a.leave, b.leave) {
			t.Fatalf("step %d: warm told %+v, cold %+v; want the same", i, a, b)
		}
		if a.held {
			held++
		}
		if a.shell {
			shelled++
		}
	}
	if skin == 0 && held == 0 {
		t.Fatalf("no held step among %d: the test does not reach heldRuns", len(warm))
	}
	if skin > 0 && shelled == 0 {
		t.Fatalf("no step told from a shell among %d: the shell's fill is not checked", len(warm))
	}
}

// TestHeldRuns: for a crowded cell of an ordered grid, heldRuns lists, in
// order, exactly the entries of the sub-squares skips does not leave out,
// adjacent squares merged into one run; a sparse cell is one run.
func TestHeldRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	g := New(64)
	for key := range uint32(4000) { // ~1000 a cell in the four cells around the origin
		g.Insert(key, Vec{rng.Float32()*128 - 64, rng.Float32()*128 - 64, rng.Float32() * 4}, 100)
	}
	g.Insert(9999, Vec{500, 500, 0}, 100)
	g.Compact()
	cx, cy := g.axis(10), g.axis(10)
	c := g.peek(cx, cy)
	e := g.subsAt(cx, cy)
	if len(c.p) < subMin || e == nil {
		t.Fatalf("cell holds %d entities, ordered %v; want ≥ %d, ordered", len(c.p), e != nil, subMin)
	}
	cases := []struct {
		name     string
		from, to Vec
		cutD     float32
	}{
		{"band through the cell", Vec{-70, -40, 0}, Vec{-60, -40, 0}, 90},
		{"cell inside the answer", Vec{0, 0, 0}, Vec{4, 0, 0}, 400},
		{"band at the cell's edge", Vec{-100, 30, 0}, Vec{-95, 30, 0}, 120},
	}
	// And random steps around the cell: bands through it at any angle, the
	// cell wholly inside or outside, either point in it.
	for range 300 {
		from := Vec{rng.Float32()*400 - 200, rng.Float32()*400 - 200, rng.Float32() * 8}
		a := rng.Float64() * 2 * math.Pi
		step := rng.Float32() * 20
		to := Vec{from.X + step*float32(math.Cos(a)), from.Y + step*float32(math.Sin(a)), from.Z}
		cases = append(cases, struct {
			name     string
			from, to Vec
			cutD     float32
		}{"random", from, to, 20 + rng.Float32()*200})
	}
	partial := 0 // cases reading some squares of the cell, not all
	for _, tc := range cases {
		lo2, band2, cutD2 := (tc.cutD-6)*(tc.cutD-6), (tc.cutD+6)*(tc.cutD+6), tc.cutD*tc.cutD
		runs := g.heldRuns(nil, 3, c, cx, cy, tc.from, tc.to, lo2, band2, cutD2)
		// Expected: each square's run, read or not, by the same test.
		var want []int32 // entries, in order
		start := int32(0)
		for q := range int32(subN) {
			end := e[q]
			w := g.size / subSide
			xl := float32(cx)*g.size - Bound + float32(q%subSide)*w
			yl := float32(cy)*g.size - Bound + float32(q/subSide)*w
			gxt, gyt := boxGap(tc.to.X, xl, xl+w), boxGap(tc.to.Y, yl, yl+w)
			gxf, gyf := boxGap(tc.from.X, xl, xl+w), boxGap(tc.from.Y, yl, yl+w)
			ft := farPad2(boxFar(tc.to.X, xl, xl+w), boxFar(tc.to.Y, yl, yl+w), c.zFar(tc.to.Z))
			ff := farPad2(boxFar(tc.from.X, xl, xl+w), boxFar(tc.from.Y, yl, yl+w), c.zFar(tc.from.Z))
			if !skips(c, gxt*gxt+gyt*gyt, gxf*gxf+gyf*gyf, ft, ff, lo2, band2, cutD2) {
				for i := start; i < end; i++ {
					want = append(want, i)
				}
			}
			start = end
		}
		var got []int32
		for i, r := range runs {
			if r.ci != 3 || r.start >= r.end {
				t.Fatalf("%s: run %d is %+v; want cell 3, not empty", tc.name, i, r)
			}
			if i > 0 && r.start <= runs[i-1].end {
				t.Fatalf("%s: run %d %+v starts at or before the last one's end %d; want merged or after it", tc.name, i, r, runs[i-1].end)
			}
			for j := r.start; j < r.end; j++ {
				got = append(got, j)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: runs %v read %d entries, want %d (the squares not skipped)", tc.name, runs, len(got), len(want))
		}
		if len(got) > 0 && len(got) < len(c.p) {
			partial++
		}
	}
	if partial < 60 {
		t.Fatalf("%d cases read part of the cell, want ≥ 60 (the test would not see a wrong skip)", partial)
	}
	sx, sy := g.axis(500), g.axis(500)
	sparse := g.peek(sx, sy)
	runs := g.heldRuns(nil, 0, sparse, sx, sy, Vec{490, 490, 0}, Vec{495, 490, 0}, 1, 4, 2)
	if len(runs) != 1 || runs[0] != (scanRun{0, 0, int32(len(sparse.p))}) {
		t.Fatalf("sparse cell: runs %v, want one run of its %d entries", runs, len(sparse.p))
	}
}
