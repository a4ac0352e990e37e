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

// TestHideMarkedMatchesHide: hideMarked (the hides' slots taken from
// hidesBySlots' marks, removed last slot first) leaves the table, the
// fingerprint, the ops and the hides left as hide (each looked up) does,
// for small tables whose probe runs often cross the table's end (a
// removal there moves an entry from the table's start to its end, whose
// mark is then stale) and any n of the hides. It fails if a stale mark is
// taken as the hide's slot.
func TestHideMarkedMatchesHide(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for round := range 3000 {
		a, b := New(Unlimited), New(Unlimited)
		n := 2 + rng.IntN(40)
		ids := make([]uint32, 0, n)
		for len(ids) < n {
			id := rng.Uint32N(1 << 16)
			if _, ok := a.Shown(id); ok {
				continue
			}
			rev := rng.Uint32N(3)
			for _, v := range []*View{a, b} {
				v.shown.insert(id, rev)
				v.sum += mix(id, rev)
			}
			ids = append(ids, id)
		}
		rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		hides := ids[:2+rng.IntN(len(ids)-1)]
		a.hides, b.hides = slices.Clone(hides), slices.Clone(hides)
		if !a.hidesBySlots() || !b.hidesBySlots() {
			continue
		}
		nh := rng.IntN(len(hides) + 1)
		nw := (len(a.shown.slots) + 63) / 64
		got := a.hideMarked(nh, a.order[:nw], nil)
		want := b.hide(nh, nil)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: got ops %v, want %v", round, got, want)
		}
		if !slices.Equal(a.shown.slots, b.shown.slots) || a.shown.n != b.shown.n || a.sum != b.sum {
			t.Fatalf("round %d: hiding %d of %v: got table %v (%d, sum %x), want %v (%d, sum %x)",
				round, nh, hides, a.shown.slots, a.shown.n, a.sum, b.shown.slots, b.shown.n, b.sum)
		}
		if !slices.Equal(a.hides, b.hides) {
			t.Fatalf("round %d: got hides left %v, want %v", round, a.hides, b.hides)
		}
	}
}
