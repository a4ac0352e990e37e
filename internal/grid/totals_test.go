package grid

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCacheDiffCountsChangedCells: a Cache's Diff equals the grid's Diff
// after each kind of change in a cell it counts from totals (a rev, a
// weight, a move within the cell, a removal, an insertion), and counts that
// cell again.
func TestCacheDiffCountsChangedCells(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := New(64)
	inf := float32(math.Inf(1))
	handles := make([]Handle, 3000)
	for key := range uint32(len(handles)) {
		handles[key] = g.Insert(key, Vec{rng.Float32()*1200 - 600, rng.Float32()*1200 - 600, 0}, inf)
		g.SetRev(handles[key], key%7)
	}
	const limit = 500
	tc := NewCache(g, limit, 64, 64, testSum, 8)
	from, to := Vec{1, 2, 0}, Vec{13, 7, 0}
	near := g.Nearest(from, 1, nil)[0] // in a cell counted from totals: within 32 m of from, the cut ~200 m out
	h := handles[near.Key]
	changes := []struct {
		name   string
		change func()
	}{
		{"none", func() {}},
		{"rev", func() { g.SetRev(h, 100) }},
		{"weight", func() { g.SetWeight(h, 3) }},
		{"move in the cell", func() { p := g.Position(h); g.Move(h, Vec{p.X + 0.5, p.Y, p.Z}) }},
		{"remove", func() { g.Remove(h) }},
		{"insert", func() { h = g.Insert(9999, Vec{from.X + 1, from.Y, 0}, inf); g.SetRev(h, 5) }},
	}
	for _, c := range changes {
		c.change()
		cut := CutOf(g.Nearest(from, limit, nil), limit)
		var want, got Step
		if !g.Diff(from, to, limit, cut, testSum, &want) {
			t.Fatalf("%s: the grid's Diff failed", c.name)
		}
		before := tc.Stats()
		if !tc.Diff(from, to, cut, &got) {
			t.Fatalf("%s: the cache's Diff failed", c.name)
		}
		after := tc.Stats()
		if got.WasN != want.WasN || got.WasWeight != want.WasWeight || got.WasSum != want.WasSum || got.Cut != want.Cut {
			t.Fatalf("%s: was (n, weight, sum, cut) got %d %d %x %x, want %d %d %x %x", c.name,
				got.WasN, got.WasWeight, got.WasSum, got.Cut, want.WasN, want.WasWeight, want.WasSum, want.Cut)
		}
		if len(got.Enter) != len(want.Enter) || len(got.Leave) != len(want.Leave) {
			t.Fatalf("%s: enter, leave got %d %d, want %d %d", c.name, len(got.Enter), len(got.Leave), len(want.Enter), len(want.Leave))
		}
		counted, recounted := after.Counted-before.Counted, after.Recounted-before.Recounted
		if counted == 0 {
			t.Fatalf("%s: no cell counted from totals", c.name)
		}
		switch {
		case before.Counted == 0: // the first Diff counts every cell
		case c.name == "none" && recounted != 0:
			t.Fatalf("%s: %d cells counted again, want none", c.name, recounted)
		case c.name != "none" && recounted == 0:
			t.Fatalf("%s: no cell counted again, want the changed one", c.name)
		}
	}
}
