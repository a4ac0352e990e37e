package stream

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"dlmp/internal/grid"
)

// TestPatchStepMatchesReconcile walks viewers through a random world, each
// with two views of the same kind: one reconciled with the listed wanted
// set, the other patched by grid.Diff where it can be. Every pass must send
// the same ops in the same order, and leave the same views; small budgets
// leave ops pending across passes, which Patch must refuse to build on.
func TestPatchStepMatchesReconcile(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	g := grid.New(64)
	hot := grid.Vec{X: 100, Y: -200}
	for id := range uint32(4000) {
		p := grid.Vec{X: hot.X + rng.Float32()*600 - 300, Y: hot.Y + rng.Float32()*600 - 300, Z: rng.Float32() * 20}
		r := []float32{30, 60, 90, float32(math.Inf(1))}[rng.IntN(4)]
		g.SetRev(g.Insert(id, p, r), 1+uint32(rng.IntN(3)))
	}
	var patched, passes int
	for _, limit := range []int{50, 300, Unlimited} {
		lim := limit
		if limit == Unlimited {
			lim = grid.NoLimit
		}
		listed := func(p grid.Vec) []Want {
			var hs []grid.Hit
			if limit == Unlimited {
				hs = g.Covering(p, nil)
			} else {
				hs = g.Nearest(p, limit, nil)
			}
			ws := make([]Want, len(hs))
			for i, h := range hs {
				ws[i] = Want{ID: h.Key, Rev: h.Rev, Dist2: h.Dist2}
			}
			return ws
		}
		for range 6 {
			at := grid.Vec{X: hot.X + rng.Float32()*400 - 200, Y: hot.Y + rng.Float32()*400 - 200, Z: 5}
			a, b := New(limit), New(limit)
			want := listed(at)
			cut := cutOfWants(want, limit)
			a.Reconcile(slices.Clone(want), Unlimited, HidesFirst, nil)
			b.Reconcile(want, Unlimited, HidesFirst, nil)
			var s grid.Step
			for range 30 {
				passes++
				budget := []int{1, 8, 64, Unlimited}[rng.IntN(4)]
				if rng.IntN(4) == 0 { // a pass that only flushes
					gotA, gotB := a.Flush(budget, HidesFirst, nil), b.Flush(budget, HidesFirst, nil)
					checkOps(t, "flush", gotA, gotB)
					continue
				}
				ang := rng.Float64() * 2 * math.Pi
				d := []float32{0, 3, 10, 25}[rng.IntN(4)]
				to := grid.Vec{X: at.X + d*float32(math.Cos(ang)), Y: at.Y + d*float32(math.Sin(ang)), Z: at.Z}
				gotB := b.Reconcile(listed(to), budget, HidesFirst, nil)
				var gotA []Op
				ok := g.Diff(at, to, lim, cut, Mix, &s)
				if ok {
					gotA, ok = a.PatchStep(&s, budget, HidesFirst, nil)
				}
				if ok {
					patched++
					cut = s.Cut
				} else {
					if len(gotA) != 0 {
						t.Fatalf("a refused patch sent %d ops", len(gotA))
					}
					want := listed(to)
					gotA = a.Reconcile(slices.Clone(want), budget, HidesFirst, nil)
					cut = cutOfWants(want, limit)
				}
				checkOps(t, "pass", gotA, gotB)
				if a.Len() != b.Len() || a.sum != b.sum || a.Pending() != b.Pending() {
					t.Fatalf("views differ: len %d/%d, pending %d/%d", a.Len(), b.Len(), a.Pending(), b.Pending())
				}
				at = to
			}
		}
	}
	t.Logf("patched %d of %d", patched, passes)
	if patched < passes/3 {
		t.Errorf("patched %d of %d passes, want at least a third", patched, passes)
	}
}

func cutOfWants(ws []Want, limit int) uint64 {
	hs := make([]grid.Hit, len(ws))
	for i, w := range ws {
		hs[i] = grid.Hit{Key: w.ID, Dist2: w.Dist2, Weight: 1}
	}
	return grid.CutOf(hs, limit) // Unlimited is grid.NoLimit
}

func checkOps(t *testing.T, what string, got, want []Op) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("%s: got %d ops %v, want %d %v", what, len(got), got[:min(len(got), 8)], len(want), want[:min(len(want), 8)])
	}
}

// TestPatchRefusesAnotherSet checks that Patch changes nothing unless the
// view shows the set it is told.
func TestPatchRefusesAnotherSet(t *testing.T) {
	a, b, c := w(1, 1, 10), w(2, 1, 20), w(3, 1, 30)
	v := New(Unlimited)
	v.Reconcile([]Want{a, b}, Unlimited, HidesFirst, nil)
	for _, tc := range []struct {
		name string
		n    int
		sum  uint64
	}{
		{"another member", 2, sumOf(a, c)},
		{"fewer", 1, sumOf(a)},
		{"another rev", 2, sumOf(a, w(2, 2, 20))},
	} {
		ops, ok := v.Patch(tc.n, tc.sum, []uint32{1}, []Want{c}, Unlimited, HidesFirst, nil)
		if ok || len(ops) != 0 || v.Len() != 2 || v.Pending() != 0 {
			t.Errorf("%s: got ok %v, %d ops, %d shown, %d pending; want false, 0, 2, 0", tc.name, ok, len(ops), v.Len(), v.Pending())
		}
	}
	ops, ok := v.Patch(2, sumOf(a, b), []uint32{1}, []Want{c}, Unlimited, HidesFirst, nil)
	if want := []Op{hide(1), show(3, 1)}; !ok || !slices.Equal(ops, want) {
		t.Errorf("the shown set: got %v %v, want true %v", ok, ops, want)
	}
}

// TestPatchKeepsNoCallerSlice: a Patch whose ops all fit the budget sends
// them from the caller's slices; the view must keep neither. After it, the
// caller scribbles over its slices, and the view's later ops (a Patch that
// leaves leftovers, then Flushes) must be those of a view patched from
// copies. Small steps (slices the view would keep) and large ones.
func TestPatchKeepsNoCallerSlice(t *testing.T) {
	for _, size := range []uint32{20, 200} {
		a, b := New(Unlimited), New(Unlimited)
		var start []Want
		for id := range uint32(300) {
			start = append(start, Want{ID: id, Rev: 1, Dist2: float32(id)})
		}
		a.Reconcile(slices.Clone(start), Unlimited, HidesFirst, nil)
		b.Reconcile(slices.Clone(start), Unlimited, HidesFirst, nil)
		hide, show := make([]uint32, 0, size), make([]Want, 0, size)
		for id := range size {
			hide = append(hide, id)
			show = append(show, Want{ID: 1000 + id, Rev: 2, Dist2: float32(1000 - id)})
		}
		n, sum := a.Len(), a.sum
		gotA, okA := a.Patch(n, sum, hide, show, Unlimited, HidesFirst, nil)
		gotB, okB := b.Patch(n, sum, slices.Clone(hide), slices.Clone(show), Unlimited, HidesFirst, nil)
		if !okA || !okB {
			t.Fatal("setup: Patch refused")
		}
		checkOps(t, "patch", gotA, gotB)
		// A second step whose ops do not fit: leftovers kept by the view,
		// the caller's first slices scribbled over before the flush.
		hide2, show2 := []uint32{size, size + 1, size + 2, size + 3}, []Want{{ID: 5000, Rev: 1}, {ID: 5001, Rev: 1, Dist2: 1}}
		n, sum = a.Len(), a.sum
		gotA, okA = a.Patch(n, sum, hide2, show2, 3, HidesFirst, nil)
		gotB, okB = b.Patch(n, sum, slices.Clone(hide2), slices.Clone(show2), 3, HidesFirst, nil)
		if !okA || !okB {
			t.Fatal("second Patch refused")
		}
		checkOps(t, "patch with leftovers", gotA, gotB)
		hide, show = hide[:cap(hide)], show[:cap(show)]
		for i := range hide {
			hide[i], show[i] = 99999, Want{ID: 99999, Rev: 9}
		}
		checkOps(t, "flush", a.Flush(Unlimited, HidesFirst, nil), b.Flush(Unlimited, HidesFirst, nil))
		if a.Len() != b.Len() || a.sum != b.sum {
			t.Fatalf("size %d: views differ: %d shown (sum %x), want %d (%x)", size, a.Len(), a.sum, b.Len(), b.sum)
		}
	}
}

// TestPatchShowsANewRev: a show of an entity the view shows at another rev
// (the world's blip and label steps pass such extras) is what Reconcile
// sends for the new set: the entity shown again at its new rev, the count
// unchanged, the fingerprint that of the new set (a Patch told the new set
// is accepted after it).
func TestPatchShowsANewRev(t *testing.T) {
	a, b, c := w(1, 1, 10), w(2, 1, 20), w(3, 1, 30)
	b2 := w(2, 2, 20)
	p, r := New(Unlimited), New(Unlimited)
	p.Reconcile([]Want{a, b, c}, Unlimited, HidesFirst, nil)
	r.Reconcile([]Want{a, b, c}, Unlimited, HidesFirst, nil)
	got, ok := p.Patch(3, sumOf(a, b, c), []uint32{1}, []Want{b2}, Unlimited, HidesFirst, nil)
	want := r.Reconcile([]Want{b2, c}, Unlimited, HidesFirst, nil)
	if !ok {
		t.Fatal("Patch refused the view's own set")
	}
	checkOps(t, "a new rev", got, want)
	if p.Len() != 2 || p.sum != sumOf(b2, c) {
		t.Errorf("after: %d shown, sum %x; want 2, %x", p.Len(), p.sum, sumOf(b2, c))
	}
}

// TestStepScratchKept: an object view's steps (a few hundred hides and
// shows each) size the view's sort scratch once; the next steps of that
// size allocate nothing (keepOrder).
func TestStepScratchKept(t *testing.T) {
	v := New(Objects.Limit())
	var start []Want
	for id := range uint32(1000) {
		start = append(start, Want{ID: id, Rev: 1, Dist2: float32(id)})
	}
	v.Reconcile(start, Unlimited, HidesFirst, nil)
	const size = 300
	hide, show := make([]uint32, size), make([]Want, size)
	out := make([]Op, 0, 2*size)
	next := uint32(0) // the lowest id shown: each step hides the nearest size and shows size farther
	patch := func() {
		for i := range uint32(size) {
			hide[i] = next + i
			show[i] = Want{ID: next + 1000 + i, Rev: 1, Dist2: float32(next + 1000 + i)}
		}
		var ok bool
		if out, ok = v.Patch(v.Len(), v.sum, hide, show, Unlimited, HidesFirst, out[:0]); !ok {
			t.Fatal("Patch refused")
		}
		if len(out) != 2*size {
			t.Fatalf("got %d ops, want %d", len(out), 2*size)
		}
		next += size
	}
	patch()
	if n := testing.AllocsPerRun(20, patch); n != 0 {
		t.Errorf("got %v allocs per step of %d hides and shows, want 0", n, size)
	}
}

// TestFirstReconcileAfterPatchHides: a fresh view that took its first
// entities by Patch, then diffs, hides the ones no longer wanted. The
// inserts of a fresh table must not count as wanted by its first
// Reconcile (decision 0297, when a slot held the epoch of the reconcile
// that wanted it; Reconcile marks the slots it keeps in a bitmap since
// decision 0403).
func TestFirstReconcileAfterPatchHides(t *testing.T) {
	a, b := w(1, 1, 10), w(2, 1, 20)
	v := New(Unlimited)
	if _, ok := v.Patch(0, 0, nil, []Want{a, b}, Unlimited, HidesFirst, nil); !ok {
		t.Fatal("a fresh view refused a patch from the empty set")
	}
	ops := v.Reconcile([]Want{a}, Unlimited, HidesFirst, nil)
	checkOps(t, "reconcile after the first patch", ops, []Op{hide(2)})
	if v.Len() != 1 {
		t.Errorf("got %d shown, want 1", v.Len())
	}
}
