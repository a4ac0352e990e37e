package world

import (
	"cmp"
	"math"
	"slices"
	"testing"

	"dlmp/internal/grid"
)

// TestBlipRingEqualsNearest: rings built at random points among 800 blips
// (a third with a draw distance, edges everywhere), steps from points up to
// twice the skin from the center, to points up to 60 m on, for limits of 60
// to 160 (cuts inside the inner part and past the band) and old answers of
// a limit up to 10 off. Whenever the ring tells a step, its counts,
// fingerprint, entries, leaves and cut are the answers' (two Nearest
// queries). It fails unless the ring told some steps and refused some, and
// fails with the checks of the cut against the inner part or the band
// dropped, a skin three times too wide, or the blips past their edge left
// out of the band.
func TestBlipRingEqualsNearest(t *testing.T) {
	for seed := range uint64(3) {
		f, r, near := seeded(t, seed, 270)
		for i := range 800 {
			bp := BlipParams{Pos: near(500)}
			if i%3 == 0 {
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
		keys := func(hs []grid.Hit) []uint32 {
			var ks []uint32
			for _, h := range hs {
				ks = append(ks, h.Key)
			}
			slices.Sort(ks)
			return ks
		}
		told, refused := 0, 0
		for range 3000 {
			var ring blipRing
			c := near(250)
			f.w.buildBlipRing(&ring, g, grid.Scope{}, c, sum)
			if ring.g == nil {
				t.Fatalf("seed %d: no ring at %v among 800 blips", seed, c)
			}
			from := off(c, float32(r.Float64())*2*blipRingSkin)
			to := off(from, float32(r.Float64())*60)
			limit := 60 + r.IntN(101)
			oldLimit := limit + r.IntN(21) - 10
			old := g.Nearest(from, oldLimit, nil)
			cut := grid.CutOf(old, oldLimit)
			if !ring.serves(g, from) || !ring.serves(g, to) {
				continue // blipDiff builds a ring at to
			}
			if !f.w.ringDiff(&ring, from, to, limit, cut) {
				refused++
				continue
			}
			told++
			s := &pr.step
			var wasSum uint64
			for _, h := range old {
				wasSum += sum(h.Key, h.Rev)
			}
			if s.WasN != len(old) || s.WasSum != wasSum {
				t.Fatalf("seed %d: ring's old answer %d (sum %x), want %d (sum %x)", seed, s.WasN, s.WasSum, len(old), wasSum)
			}
			now := g.Nearest(to, limit+1, nil)
			slices.SortFunc(now, func(a, b grid.Hit) int { return cmp.Compare(a.Rank(), b.Rank()) })
			wantCut := now[limit].Rank()
			now = now[:limit]
			var enter, leave []grid.Hit
			for _, h := range now {
				if !slices.ContainsFunc(old, func(o grid.Hit) bool { return o.Key == h.Key }) {
					enter = append(enter, h)
				}
			}
			for _, h := range old {
				if !slices.ContainsFunc(now, func(o grid.Hit) bool { return o.Key == h.Key }) {
					leave = append(leave, h)
				}
			}
			if got, want := keys(s.Enter), keys(enter); !slices.Equal(got, want) {
				t.Fatalf("seed %d: ring's entries %v, want %v", seed, got, want)
			}
			if got, want := keys(s.Leave), keys(leave); !slices.Equal(got, want) {
				t.Fatalf("seed %d: ring's leaves %v, want %v", seed, got, want)
			}
			if s.Cut != wantCut {
				t.Fatalf("seed %d: ring's cut %x, want %x", seed, s.Cut, wantCut)
			}
		}
		if told < 100 || refused < 100 {
			t.Errorf("seed %d: the ring told %d steps and refused %d: want some hundreds of each", seed, told, refused)
		}
	}
}
