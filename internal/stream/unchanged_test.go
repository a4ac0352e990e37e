package stream

import (
	"testing"

	"dlmp/internal/grid"
)

func sumOf(ws ...Want) uint64 {
	var s uint64
	for _, w := range ws {
		s += Mix(w.ID, w.Rev)
	}
	return s
}

// TestUnchanged checks that Unchanged agrees with what Reconcile would do:
// true (and nothing pending afterwards) only for the shown set itself.
func TestUnchanged(t *testing.T) {
	a, b, c := w(1, 1, 10), w(2, 1, 20), w(3, 1, 30)
	cases := []struct {
		name   string
		n      int
		weight uint64
		sum    uint64
		want   bool
	}{
		{"the shown set", 2, 2, sumOf(a, b), true},
		{"one more", 3, 3, sumOf(a, b, c), false},
		{"another member", 2, 2, sumOf(a, c), false},
		{"another rev", 2, 2, sumOf(a, w(2, 2, 20)), false},
		{"fewer", 1, 1, sumOf(a), false},
		{"over the limit (Reconcile trims)", 2, 3, sumOf(a, b), false},
	}
	for _, tc := range cases {
		v := New(2)
		v.Reconcile([]Want{a, b, c}, 2+1, HidesFirst, nil) // shows a, b (limit 2)
		if got := v.Len(); got != 2 {
			t.Fatalf("setup: got %d shown, want 2", got)
		}
		if got := v.Unchanged(tc.n, tc.weight, tc.sum); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	// With nothing pending and the shown set: true, and Reconcile agrees.
	v := New(Unlimited)
	v.Reconcile([]Want{a, b}, Unlimited, HidesFirst, nil)
	if !v.Unchanged(2, 2, sumOf(a, b)) {
		t.Fatalf("shown set: got false, want true")
	}
	if v.Unchanged(2, 2, sumOf(a, c)) {
		t.Fatalf("other set: got true, want false")
	}
	if ops := v.Reconcile([]Want{a, c}, Unlimited, HidesFirst, nil); len(ops) != 2 {
		t.Fatalf("Reconcile after a false Unchanged: got %v, want a hide and a show", ops)
	}
}

func TestUnchangedDropsPending(t *testing.T) {
	a, b := w(1, 1, 10), w(2, 1, 20)
	v := New(Unlimited)
	v.Reconcile([]Want{a}, Unlimited, HidesFirst, nil)
	v.Reconcile([]Want{a, b}, 0, HidesFirst, nil) // b's show pending
	if v.Pending() != 1 {
		t.Fatalf("got %d pending, want 1", v.Pending())
	}
	if !v.Unchanged(1, 1, sumOf(a)) {
		t.Fatalf("shown set {a}: got false, want true")
	}
	if v.Pending() != 0 {
		t.Fatalf("after Unchanged: got %d pending, want 0 (as after Reconcile)", v.Pending())
	}
}

// TestUnchangedAnswer checks the cached steady path against Reconcile on a
// real grid and cache: a view filled from the grid's answer is unchanged
// for the cache's answer at the same point, and not after a change.
func TestUnchangedAnswer(t *testing.T) {
	g := grid.New(64)
	var hs []grid.Handle
	for i := range 400 {
		h := g.Insert(uint32(i), grid.Vec{X: float32(i%20) * 7, Y: float32(i/20) * 7}, 60)
		g.SetRev(h, 1)
		hs = append(hs, h)
	}
	c := grid.NewCache(g, 50, 16, 8, Mix, 16)
	p := grid.Vec{X: 70, Y: 70, Z: 1}
	list := func(hits []grid.Hit) []Want {
		var ws []Want
		for _, h := range hits {
			ws = append(ws, Want{ID: h.Key, Rev: h.Rev, Dist2: h.Dist2})
		}
		return ws
	}
	v := New(50)
	v.Reconcile(list(g.Nearest(p, 50, nil)), Unlimited, HidesFirst, nil)
	for q := range 5 { // the grid's answer, then boxes and parts
		box, hits := c.Query(p, nil)
		if !v.UnchangedAnswer(box, hits) {
			t.Fatalf("query %d: got changed, want unchanged", q)
		}
	}
	g.SetRev(hs[210], 2) // an entity near p, among the 50 nearest
	box, hits := c.Query(p, nil)
	if v.UnchangedAnswer(box, hits) {
		t.Fatalf("after a rev change: got unchanged")
	}
	ops := v.Reconcile(list(box.AppendSure(p, hits)), Unlimited, HidesFirst, nil)
	if len(ops) != 1 || ops[0] != (Op{ID: 210, Rev: 2, Show: true}) {
		t.Fatalf("after a rev change: got %v, want a show of 210 at rev 2", ops)
	}
}
