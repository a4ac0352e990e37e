package stream

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestShowsNearestFirstAcrossFlushes checks that the shows of one Reconcile
// come out in compare's order across any budgets, chains included.
func TestShowsNearestFirstAcrossFlushes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for round := range 300 {
		var ws []Want
		id := uint32(0)
		for range rng.IntN(400) {
			id += 1 + uint32(rng.IntN(3))
			d := float32(rng.IntN(60)) // ties in distance
			// One in six: a chain, root and children at its distance.
			if rng.IntN(6) == 0 {
				n := 1 + rng.IntN(3)
				ws = append(ws, Want{ID: id, Rev: 1, Dist2: d, Chain: uint16(n)})
				root := id
				for c := range n {
					id++
					ws = append(ws, Want{ID: id, Rev: 1, Dist2: d, Root: root, Depth: uint16(1 + c%2)})
				}
				continue
			}
			ws = append(ws, Want{ID: id, Rev: 1, Dist2: d})
		}
		rng.Shuffle(len(ws), func(i, j int) { ws[i], ws[j] = ws[j], ws[i] })
		want := slices.Clone(ws)
		slices.SortFunc(want, compare)

		v := New(Unlimited)
		var got []Op
		got = v.Reconcile(slices.Clone(ws), 1+rng.IntN(80), []Order{HidesFirst, ShowsFirst}[round%2], got)
		for v.Pending() > 0 {
			got = v.Flush(1+rng.IntN(80), HidesFirst, got)
		}
		if len(got) != len(want) {
			t.Fatalf("round %d: got %d ops, want %d", round, len(got), len(want))
		}
		for i := range want {
			if got[i].ID != want[i].ID || !got[i].Show {
				t.Fatalf("round %d: op %d: got %v, want a show of %d", round, i, got[i], want[i].ID)
			}
		}
	}
}
