package world

import (
	"cmp"
	"math"
	"slices"
	"testing"

	"dlmp/internal/grid"
)

// ringScan is ringDiff as it was before the window (decision 0394): every
// blip of the band told one by one, in the order the ring was built. It
// returns the step (entries, leaves, old counts, cut) or false.
func ringScan(r *blipRing, from, to grid.Vec, limit int, cut uint64) (grid.Step, bool) {
	var s grid.Step
	need := limit - r.n
	if cut == grid.AllCut || cut == 0 || need < 1 {
		return s, false
	}
	ents := slices.Clone(r.ents)
	slices.SortFunc(ents, func(a, b ringEnt) int { return cmp.Compare(a.ord, b.ord) })
	df0 := math.Sqrt(float64(grid.Dist2(r.c, from)))
	dt0 := math.Sqrt(float64(grid.Dist2(r.c, to)))
	dOld := math.Sqrt(float64(cutDist2(cut)))
	if !r.within(dOld, df0) {
		return s, false
	}
	delta := math.Sqrt(float64(grid.Dist2(from, to)))
	lo := max(dOld-delta-ringPad(dOld), 0)
	hi := dOld + delta + 1 + ringPad(dOld)
	lo2, hi2 := float32(lo*lo), float32(hi*hi)
	s.WasN, s.WasWeight, s.WasSum = r.n, uint64(r.n), r.sum
	var hs []grid.Hit
	was := make([]bool, len(ents))
	sure := 0
	for i := range ents {
		e := &ents[i]
		df, dt := grid.Dist2(e.at, from), grid.Dist2(e.at, to)
		in := df <= e.r2 && uint64(math.Float32bits(df))<<32|uint64(e.key) < cut
		was[i] = in
		if in {
			s.WasN++
			s.WasWeight++
			s.WasSum += e.mix
		}
		switch {
		case dt > e.r2 || dt > hi2:
			continue
		case dt < lo2:
			sure++
			if !in {
				s.Enter = append(s.Enter, grid.Hit{Key: e.key, Rev: e.rev, Dist2: dt, Weight: 1})
			}
			was[i] = false
			continue
		}
		hs = append(hs, grid.Hit{Key: e.key, Rev: uint32(i), Dist2: dt, Weight: 1})
	}
	need -= sure
	if need < 0 || len(hs) <= need {
		return s, false
	}
	n := grid.SelectNearest(hs, need)
	out := uint64(grid.AllCut)
	for _, h := range hs[n:] {
		out = min(out, h.Rank())
	}
	if !r.within(math.Sqrt(float64(cutDist2(out))), dt0) {
		return s, false
	}
	for _, h := range hs[:n] {
		if was[h.Rev] {
			was[h.Rev] = false
			continue
		}
		s.Enter = append(s.Enter, grid.Hit{Key: h.Key, Rev: ents[h.Rev].rev, Dist2: h.Dist2, Weight: 1})
	}
	for i, in := range was {
		if in {
			e := &ents[i]
			s.Leave = append(s.Leave, grid.Hit{Key: e.key, Rev: e.rev, Dist2: grid.Dist2(e.at, to), Weight: 1})
		}
	}
	s.Cut = out
	return s, true
}

// TestRingWindowEqualsScan: rings built at random points among 2,000 blips
// (a fifth with a draw distance), steps from points within the skin to
// points up to 10 m on, for limits of 80 to 120 and old answers of a limit
// up to 4 off. ringDiff, which reads only the band's window, tells the same
// steps as a scan of the whole band (ringScan): the same refusals, old
// counts and fingerprint, cut, and entries and leaves in the same order. It
// fails unless the window left a third of the band unread, and fails with
// either term of wl or of wh dropped, the window 3 m narrower on each side,
// or the candidates or the leaves left in the window's order (not the
// band's as built).
func TestRingWindowEqualsScan(t *testing.T) {
	for seed := range uint64(3) {
		f, r, near := seeded(t, seed, 394)
		for i := range 2000 {
			bp := BlipParams{Pos: near(600)}
			if i%5 == 0 {
				bp.DrawDistance = float32(50 + r.IntN(400))
			}
			f.blip(bp)
		}
		pr := &f.w.prims
		g := pr.blipG.Lookup(grid.Scope{})
		sum := f.w.caches.kinds[cacheBlips].sum
		off := func(p grid.Vec, d float32) grid.Vec {
			a := r.Float64() * 2 * math.Pi
			return grid.Vec{X: p.X + d*float32(math.Cos(a)), Y: p.Y + d*float32(math.Sin(a))}
		}
		told, band, read := 0, 0, 0
		for range 3000 {
			var ring blipRing
			c := near(300)
			f.w.buildBlipRing(&ring, g, grid.Scope{}, c, sum)
			if ring.g == nil {
				t.Fatalf("seed %d: no ring at %v", seed, c)
			}
			from := off(c, float32(r.Float64())*blipRingSkin)
			to := off(from, float32(r.Float64())*10)
			if !ring.serves(g, to) {
				continue
			}
			limit := 80 + r.IntN(41)
			oldLimit := limit + r.IntN(9) - 4
			cut := grid.CutOf(g.Nearest(from, oldLimit, nil), oldLimit)
			want, wok := ringScan(&ring, from, to, limit, cut)
			read0 := pr.ringRead
			got := f.w.ringDiff(&ring, from, to, limit, cut)
			if got != wok {
				t.Fatalf("seed %d: ringDiff told %v, the scan %v", seed, got, wok)
			}
			if !got {
				continue
			}
			told++
			band += len(ring.ents)
			read += int(pr.ringRead - read0)
			s := &pr.step
			if s.WasN != want.WasN || s.WasWeight != want.WasWeight || s.WasSum != want.WasSum || s.Cut != want.Cut {
				t.Fatalf("seed %d: ringDiff's old answer %d/%d (sum %x), cut %x; the scan's %d/%d (sum %x), cut %x",
					seed, s.WasN, s.WasWeight, s.WasSum, s.Cut, want.WasN, want.WasWeight, want.WasSum, want.Cut)
			}
			if !slices.Equal(s.Enter, want.Enter) || !slices.Equal(s.Leave, want.Leave) {
				t.Fatalf("seed %d: ringDiff's entries %v, leaves %v; the scan's %v, %v", seed, s.Enter, s.Leave, want.Enter, want.Leave)
			}
		}
		if told < 500 {
			t.Fatalf("seed %d: %d steps told, want some hundreds", seed, told)
		}
		if 3*read > 2*band {
			t.Fatalf("seed %d: the window read %d of %d band entries: want fewer than two thirds", seed, read, band)
		}
		t.Logf("seed %d: %d steps, %.1f of %.1f band entries each in the window or told one by one", seed, told, float64(read)/float64(told), float64(band)/float64(told))
	}
}
