package world

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRemoveIDsAsRemoveIDInTurn checks removeIDs against removeID for
// each id in turn: the same elements in the same order, on lists of
// distinct ids (the move lists) and with twins, ids not in the list among
// those removed, and the index left stale by the lists before. It fails
// when the batch keeps the list's order (a filter) instead of swapping
// the last in, or misses an id whose place moved.
func TestRemoveIDsAsRemoveIDInTurn(t *testing.T) {
	w := &World{}
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 2000 {
		n := r.IntN(80)
		ids := r.Perm(300)[:n]
		s := make([]uint16, 0, n+2)
		for _, id := range ids {
			s = append(s, uint16(id))
		}
		if round%5 == 0 && n > 1 { // a twin
			s = append(s, s[r.IntN(n)])
		}
		var rm []uint16
		for range r.IntN(40) {
			if len(s) > 0 && r.IntN(3) > 0 {
				rm = append(rm, s[r.IntN(len(s))])
			} else {
				rm = append(rm, uint16(r.IntN(320)))
			}
		}
		want := slices.Clone(s)
		for _, id := range rm {
			want = removeID(want, id)
		}
		got := w.removeIDs(slices.Clone(s), rm)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: removeIDs(%v, %v) = %v, want %v", round, s, rm, got, want)
		}
	}
}

// TestUnplaceMovesAsUnplaceMove checks a pass's hides taken out of a
// viewer's near and far movers in one go against unplaceMove for each in
// turn, below and above unplaceBatch.
func TestUnplaceMovesAsUnplaceMove(t *testing.T) {
	w := &World{}
	r := rand.New(rand.NewPCG(5, 6))
	for round := range 500 {
		var a, b playerEnt
		for _, id := range r.Perm(400)[:r.IntN(250)] {
			if r.IntN(4) == 0 {
				a.nearP = append(a.nearP, uint16(id))
			} else {
				a.farP[id%FarMoveEvery] = append(a.farP[id%FarMoveEvery], uint16(id))
			}
		}
		b.nearP = slices.Clone(a.nearP)
		for k := range a.farP {
			b.farP[k] = slices.Clone(a.farP[k])
		}
		var hide []uint16
		for _, id := range r.Perm(400)[:r.IntN(2*unplaceBatch+100)] {
			hide = append(hide, uint16(id))
		}
		for _, id := range hide {
			a.unplaceMove(id)
		}
		w.unplaceMoves(&b, hide)
		if !slices.Equal(b.nearP, a.nearP) {
			t.Fatalf("round %d (%d hides): near %v, want %v", round, len(hide), b.nearP, a.nearP)
		}
		for k := range a.farP {
			if !slices.Equal(b.farP[k], a.farP[k]) {
				t.Fatalf("round %d (%d hides): far[%d] %v, want %v", round, len(hide), k, b.farP[k], a.farP[k])
			}
		}
	}
}

// BenchmarkUnplaceMoves is a crossing pass's hides taken out of a viewer's
// move lists (200 shown: 50 near, the rest far by id % FarMoveEvery; 85 of
// them hidden, in random order): each (unplaceMove for each hide, as
// before decision 0397) and batch (unplaceMoves). The lists are copied
// back from a template before each op, in both.
func BenchmarkUnplaceMoves(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	var tmpl playerEnt
	ids := r.Perm(1000)[:200]
	for i, id := range ids {
		if i < 50 {
			tmpl.nearP = append(tmpl.nearP, uint16(id))
		} else {
			tmpl.farP[id%FarMoveEvery] = append(tmpl.farP[id%FarMoveEvery], uint16(id))
		}
	}
	var hide []uint16
	for _, i := range r.Perm(200)[:85] {
		hide = append(hide, uint16(ids[i]))
	}
	w := &World{}
	for _, name := range []string{"each", "batch"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var e playerEnt
			for b.Loop() {
				e.nearP = append(e.nearP[:0], tmpl.nearP...)
				for k := range e.farP {
					e.farP[k] = append(e.farP[k][:0], tmpl.farP[k]...)
				}
				if name == "each" {
					for _, id := range hide {
						e.unplaceMove(id)
					}
				} else {
					w.unplaceMoves(&e, hide)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(hide)), "ns/hide")
		})
	}
}
