package grid

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDiffMatchesOracle walks query points through random worlds with hot
// spots (so that limits cut), sometimes changing the grid between steps,
// and checks every Diff against two oracle answers: what enters and leaves,
// the new cut, and the old answer's count, weight and fingerprint as the cut
// describes it on the grid as it is now.
func TestDiffMatchesOracle(t *testing.T) {
	// 0: Diff; 25: DiffIn with a shell; -1: DiffIn with a shell of skin 0
	// (held answers only); -2: a Cache's Diff (cells counted from totals).
	for _, skin := range []float32{0, 25, -1, -2} {
		testDiff(t, skin)
	}
}

func testDiff(t *testing.T, skin float32) {
	var ok, steps, shells, helds, widened int
	var counted, recounted uint64
	cached := skin == -2
	for _, cell := range []float32{16, 64, 250} {
		for seed := range uint64(6) {
			rng := rand.New(rand.NewPCG(seed, uint64(cell)+7))
			g := New(cell)
			o := &oracle{ents: map[Handle]oracleEnt{}}
			hot := []Vec{{rng.Float32()*2000 - 1000, rng.Float32()*2000 - 1000, 0}, {Bound - 30, -Bound + 20, 0}}
			var live []Handle
			for key := range uint32(1500) {
				c := hot[rng.IntN(len(hot))]
				pos := Vec{c.X + rng.Float32()*300 - 150, c.Y + rng.Float32()*300 - 150, rng.Float32()*40 - 20}
				if rng.IntN(10) == 0 && len(live) > 0 { // same position as another entity: ties by key
					pos = o.ents[live[rng.IntN(len(live))]].pos
				}
				r := []float32{0, 20, 50, 100, 150, rng.Float32() * 200, float32(math.Inf(1))}[rng.IntN(7)]
				if seed%3 == 2 && math.IsInf(float64(r), 1) {
					r = 60 // bounded radii: a scan within the band's reach reads every entity covering a point
				}
				if seed == 4 {
					r = 90 // one radius for every entity, as a pickup grid's (a shell's cells of one radius)
				}
				h := g.Insert(key, pos, r)
				w := uint32(1)
				if rng.IntN(8) == 0 {
					w = 1 + uint32(rng.IntN(6))
					g.SetWeight(h, w)
				}
				rev := uint32(rng.IntN(1000))
				g.SetRev(h, rev)
				o.ents[h] = oracleEnt{key, rev, pos, r * r, w}
				live = append(live, h)
			}
			if seed%2 == 1 {
				g.Compact()
			}
			var s Step
			for _, limit := range []int{1, 7, 60, 300, 1000, NoLimit} {
				var sh Shell
				tc := NewCache(g, limit, 64, 64, testSum, 64)
				answer := func(p Vec) []Hit {
					if limit == NoLimit {
						return o.covering(p)
					}
					return o.nearest(p, limit)
				}
				c := hot[rng.IntN(len(hot))]
				from := Vec{c.X + rng.Float32()*200 - 100, c.Y + rng.Float32()*200 - 100, rng.Float32()*10 - 5}
				cut := CutOf(answer(from), limit)
				for step := range 40 {
					if step%7 == 6 { // the grid changes between two steps
						h := live[rng.IntN(len(live))]
						e := o.ents[h]
						if rng.IntN(2) == 0 {
							e.pos.X += rng.Float32()*40 - 20
							g.Move(h, e.pos)
						} else {
							e.rev++
							g.SetRev(h, e.rev)
						}
						o.ents[h] = e
					}
					d := []float32{0, 0.5, 5, 10, 10, 15, 60}[rng.IntN(7)]
					a := rng.Float64() * 2 * math.Pi
					to := Vec{from.X + d*float32(math.Cos(a)), from.Y + d*float32(math.Sin(a)), from.Z + rng.Float32() - 0.5}
					was := o.covering(from)
					was = slices.DeleteFunc(was, func(h Hit) bool { return h.Rank() >= cut })
					now := answer(to)
					steps++
					var done bool
					if cached {
						if done = tc.Diff(from, to, cut, &s); done {
							s.Total(testSum)
						}
					} else if skin != 0 {
						done = g.DiffIn(&sh, max(skin, 0), from, to, limit, cut, testSum, &s)
						if sh.ok {
							shells++
						}
					} else {
						if done = g.Diff(from, to, limit, cut, testSum, &s); done {
							s.Total(testSum)
						}
					}
					if !done {
						from, cut = to, CutOf(now, limit)
						continue
					}
					ok++
					if s.Held {
						helds++
					}
					if s.Widened {
						widened++
					}
					checkDiff(t, &s, was, now)
					// The cut: above the last entity of the answer, at most
					// the first one refused.
					cov := o.covering(to)
					if last, first := lastRank(now)+1, refused(cov, now); s.Cut < last || s.Cut > first {
						t.Fatalf("limit %d, %v → %v: cut got %x, want in [%x, %x]", limit, from, to, s.Cut, last, first)
					}
					from, cut = to, s.Cut
				}
				counted += tc.Stats().Counted
				recounted += tc.Stats().Recounted
			}
		}
	}
	if ok < steps*3/4 {
		t.Errorf("skin %g: Diff answered %d of %d steps, want at least 3/4", skin, ok, steps)
	}
	if skin > 0 && shells < steps/4 {
		t.Errorf("skin %g: a shell was kept in %d of %d steps, want at least 1/4", skin, shells, steps)
	}
	if skin < 0 && shells > 0 {
		t.Errorf("skin 0: a ball was kept in %d steps, want none", shells)
	}
	shell := skin != 0 && !cached
	if shell && helds < steps/8 || !shell && helds > 0 {
		t.Errorf("skin %g: %d of %d steps told from a held answer, want at least 1/8 with a shell, none without", skin, helds, steps)
	}
	if cached && (counted < uint64(steps/4) || recounted == 0 || recounted > counted/4) {
		t.Errorf("cache: %d cells counted from totals in %d steps, %d recounted: want at least one in four steps, some recounted after the changes, at most a quarter", counted, steps, recounted)
	}
	if !cached && counted > 0 {
		t.Errorf("skin %g: %d cells counted from totals, want none without a cache", skin, counted)
	}
	if shell && (widened == 0 || widened > helds/2) {
		t.Errorf("skin %g: %d of %d held steps widened their band, want some, at most half", skin, widened, helds)
	}
	t.Logf("skin %g: %d steps, %d told, %d held, %d widened, %d cells counted from totals (%d recounted)", skin, steps, ok, helds, widened, counted, recounted)
}

// checkDiff compares a Step with the old answer (hits at the old point) and
// the new one (hits at the new point).
func checkDiff(t *testing.T, s *Step, was, now []Hit) {
	t.Helper()
	var n int
	var w, sum uint64
	for _, h := range was {
		n++
		w += uint64(h.Weight)
		sum += testSum(h.Key, h.Rev)
	}
	if s.WasN != n || s.WasWeight != w || s.WasSum != sum {
		t.Fatalf("was (held %v): got n %d weight %d sum %x, want %d %d %x", s.Held, s.WasN, s.WasWeight, s.WasSum, n, w, sum)
	}
	n, w, sum = 0, 0, 0
	for _, h := range now {
		n++
		w += uint64(h.Weight)
		sum += testSum(h.Key, h.Rev)
	}
	if s.N != n || s.Weight != w || s.Sum != sum {
		t.Fatalf("now (held %v): got n %d weight %d sum %x, want %d %d %x", s.Held, s.N, s.Weight, s.Sum, n, w, sum)
	}
	in := func(hs []Hit, h Hit) bool {
		return slices.ContainsFunc(hs, func(x Hit) bool { return x.Key == h.Key && x.Rev == h.Rev })
	}
	var enter, leave []Hit
	for _, h := range now {
		if !in(was, h) {
			enter = append(enter, h)
		}
	}
	for _, h := range was {
		if !in(now, h) {
			leave = append(leave, h)
		}
	}
	checkHits(t, "Enter", s.Enter, enter)
	keys := func(hs []Hit) []uint64 {
		var ks []uint64
		for _, h := range hs {
			ks = append(ks, uint64(h.Key)<<32|uint64(h.Rev))
		}
		slices.Sort(ks)
		return ks
	}
	if got, want := keys(s.Leave), keys(leave); !slices.Equal(got, want) {
		t.Fatalf("Leave: got %d (key, rev) %x, want %d %x", len(got), got, len(want), want)
	}
}

func TestDiffEmptyGridAndZeroLimit(t *testing.T) {
	var s Step
	g := New(64)
	if !g.Diff(Vec{}, Vec{X: 5}, 10, 0, testSum, &s) || len(s.Enter)+len(s.Leave) != 0 || s.Cut != 0 {
		t.Errorf("empty grid: got enter %d leave %d cut %x, want an empty step", len(s.Enter), len(s.Leave), s.Cut)
	}
	if !g.Diff(Vec{}, Vec{X: 5}, NoLimit, AllCut, testSum, &s) || s.Cut != AllCut {
		t.Errorf("empty grid, NoLimit: got cut %x, want AllCut", s.Cut)
	}
	g.Insert(1, Vec{}, 10)
	if g.Diff(Vec{}, Vec{X: 5}, 0, 0, testSum, &s) {
		t.Errorf("limit 0: got true, want false")
	}
}

// lastRank returns the largest Rank of hs.
func lastRank(hs []Hit) uint64 {
	var r uint64
	for _, h := range hs {
		r = max(r, h.Rank())
	}
	return r
}

// refused returns the Rank of the first covering entity not in the answer
// (AllCut if none).
func refused(covering, answer []Hit) uint64 {
	c := uint64(AllCut)
	for _, h := range covering {
		if !slices.ContainsFunc(answer, func(x Hit) bool { return x.Key == h.Key }) {
			c = min(c, h.Rank())
		}
	}
	return c
}

func TestCutOf(t *testing.T) {
	hs := []Hit{{Key: 3, Dist2: 4, Weight: 1}, {Key: 1, Dist2: 9, Weight: 1}}
	last := hs[1].Rank() + 1
	for _, tc := range []struct {
		hs    []Hit
		limit int
		want  uint64
	}{
		{hs, 2, last},   // as heavy as the limit: maybe cut
		{hs, 3, AllCut}, // lighter: nothing was cut (weights of 1)
		{hs, NoLimit, AllCut},
		{hs, 0, last}, // never a guess
		{nil, 5, AllCut},
		{nil, 0, 0},
	} {
		if got := CutOf(tc.hs, tc.limit); got != tc.want {
			t.Errorf("CutOf(%d hits, %d): got %x, want %x", len(tc.hs), tc.limit, got, tc.want)
		}
	}
}
