package stream

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestHidesBySlotsIsTableOrder: for views of 1 to 3000 shown ids and hides
// of 2 to all of them, hidesBySlots gives the table order patch's sort
// gives; with an id not shown or an id given twice it refuses and leaves
// the hides as they were (the sort keeps those: a bitmap would drop the
// twin and the id not shown). It fails unless the bitmap served most
// plain cases.
func TestHidesBySlotsIsTableOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var served, plain int
	for round := range 400 {
		v := New(Unlimited)
		n := 1 + rng.IntN(3000)
		ids := make([]uint32, 0, n)
		for range n {
			id := rng.Uint32N(1 << 20)
			if _, ok := v.Shown(id); ok {
				continue
			}
			v.shown.insert(id, 1)
			ids = append(ids, id)
		}
		rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		hides := slices.Clone(ids[:min(len(ids), 2+rng.IntN(len(ids)))])
		if len(hides) < 2 {
			continue
		}
		bad := round%5 == 0
		if bad {
			if rng.IntN(2) == 0 {
				hides = append(hides, hides[rng.IntN(len(hides))]) // a twin
			} else {
				hides = append(hides, 1<<21+rng.Uint32N(100)) // not shown
			}
			rng.Shuffle(len(hides), func(i, j int) { hides[i], hides[j] = hides[j], hides[i] })
		}
		want := slices.Clone(hides)
		ks := make([]uint64, len(want))
		for i, id := range want {
			ks[i] = uint64(uint32(v.shown.find(id)))<<32 | uint64(id)
		}
		slices.Sort(ks)
		for i, k := range ks {
			want[i] = uint32(k)
		}
		before := slices.Clone(hides)
		v.hides = hides
		ok := v.hidesBySlots()
		switch {
		case bad && ok:
			t.Fatalf("round %d: the bitmap took hides with a twin or an id not shown", round)
		case !ok && !slices.Equal(v.hides, before):
			t.Fatalf("round %d: refused, and changed the hides", round)
		case ok && !slices.Equal(v.hides, want):
			t.Fatalf("round %d: got %v, want %v", round, v.hides, want)
		}
		if !bad {
			plain++
			if ok {
				served++
			}
		}
	}
	if served*4 < plain*3 {
		t.Errorf("the bitmap served %d of %d plain cases: want most", served, plain)
	}
}
