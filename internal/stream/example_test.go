package stream_test

import (
	"fmt"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
)

// One player's labels: the world indexes the labels of a scope in a grid
// (key = label id, radius = draw distance, rev = the label's revision), asks
// for the nearest within the kind's limit, and lets the view turn the wanted
// set into packets.
func Example() {
	labels := grid.New(64)
	for id, x := range []float32{5, 40, 90, 400} {
		h := labels.Insert(uint32(id+1), grid.Vec{X: x}, 100)
		labels.SetRev(h, 1)
	}
	view := stream.New(stream.Labels.Limit())
	var (
		hits   []grid.Hit
		wanted []stream.Want
		ops    []stream.Op
	)
	reconcile := func(at grid.Vec, budget int) {
		hits = labels.Nearest(at, stream.Labels.Limit(), hits[:0])
		wanted = wanted[:0]
		for _, h := range hits {
			wanted = append(wanted, stream.Want{ID: h.Key, Rev: h.Rev, Dist2: h.Dist2})
		}
		ops = view.Reconcile(wanted, budget, stream.HidesFirst, ops[:0])
		fmt.Println(ops, "pending", view.Pending())
	}
	reconcile(grid.Vec{}, 2)                        // labels 1, 2, 3 are in range: the nearest two go first
	ops = view.Flush(2, stream.HidesFirst, ops[:0]) // the next pass sends the rest
	fmt.Println(ops, "pending", view.Pending())
	reconcile(grid.Vec{X: 300}, 32) // walked away: 1, 2, 3 out of range, 4 in (hides in table order)
	// Output:
	// [{1 1 true} {2 1 true}] pending 1
	// [{3 1 true}] pending 0
	// [{1 0 false} {2 0 false} {3 0 false} {4 1 true}] pending 0
}

// The full pass with a grid.Cache: the wanted set of a player who did not
// move comes from a box whose sure part is known by count and fingerprint
// (built with stream.Mix), so the steady reconcile lists nothing; the list
// is built only when the set changed.
func Example_cachedPass() {
	labels := grid.New(64)
	for id := range 40 {
		h := labels.Insert(uint32(id+1), grid.Vec{X: float32(id * 6)}, 100)
		labels.SetRev(h, 1)
	}
	cache := grid.NewCache(labels, stream.Labels.Limit(), 16, 8, stream.Mix, 1024)
	view := stream.New(stream.Labels.Limit())
	var (
		hits   []grid.Hit
		wanted []stream.Want
		ops    []stream.Op
	)
	pass := func(at grid.Vec) {
		box, band := cache.Query(at, hits[:0])
		hits = band
		if view.UnchangedAnswer(box, hits) {
			fmt.Println("unchanged, sure part", box.Len(), "band hits", len(hits))
			return
		}
		hits = box.AppendSure(at, hits) // the whole set, listed
		wanted = wanted[:0]
		for _, h := range hits {
			wanted = append(wanted, stream.Want{ID: h.Key, Rev: h.Rev, Dist2: h.Dist2})
		}
		ops = view.Reconcile(wanted, stream.Unlimited, stream.HidesFirst, ops[:0])
		fmt.Println(len(ops), "ops")
	}
	at := grid.Vec{X: 60, Y: 1}
	for range 4 { // the grid answers twice (no sure part), then the box is built
		pass(at)
	}
	labels.SetRev(2, 2) // label 3 changed: its box is built again later
	pass(at)
	// Output:
	// 27 ops
	// unchanged, sure part 0 band hits 27
	// unchanged, sure part 25 band hits 2
	// unchanged, sure part 25 band hits 2
	// 1 ops
}

// The tick with grid.Diff: a moving player's view keeps the point and the
// cut of its last answer (and a grid.Shell); a step is told as the change
// between the two points and applied by PatchStep, which refuses it unless
// the view shows exactly the old answer (then the set is listed as before).
func Example_tick() {
	pickups := grid.New(64)
	for id := range 60 {
		h := pickups.Insert(uint32(id+1), grid.Vec{X: float32(id * 10)}, 100)
		pickups.SetRev(h, 1)
	}
	view := stream.New(stream.Pickups.Limit())
	var (
		shell grid.Shell
		step  grid.Step
		hits  []grid.Hit
		ops   []stream.Op
	)
	at := grid.Vec{X: 150}
	hits = pickups.Covering(at, hits[:0])
	wanted := make([]stream.Want, 0, len(hits))
	for _, h := range hits {
		wanted = append(wanted, stream.Want{ID: h.Key, Rev: h.Rev, Dist2: h.Dist2})
	}
	ops = view.Reconcile(wanted, stream.Unlimited, stream.HidesFirst, ops[:0])
	cut := grid.CutOf(hits, grid.NoLimit)
	fmt.Println(len(ops), "shown")
	for _, x := range []float32{160, 170, 180, 190} {
		to := grid.Vec{X: x}
		var ok bool
		if pickups.DiffIn(&shell, 30, at, to, grid.NoLimit, cut, stream.Mix, &step) {
			ops, ok = view.PatchStep(&step, 64, stream.HidesFirst, ops[:0])
		}
		if !ok {
			panic("listed path: not in this example")
		}
		at, cut = to, step.Cut
		fmt.Println(ops, "from the shell:", step.Shell)
	}
	// Output:
	// 21 shown
	// [{6 0 false} {27 1 true}] from the shell: false
	// [{7 0 false} {28 1 true}] from the shell: true
	// [{8 0 false} {29 1 true}] from the shell: true
	// [{9 0 false} {30 1 true}] from the shell: true
}
