package grid

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// oracle is the brute-force model a Grid is checked against.
type oracle struct {
	ents map[Handle]oracleEnt
}

type oracleEnt struct {
	key    uint32
	rev    uint32
	pos    Vec
	r2     float32
	weight uint32
}

func (o *oracle) covering(p Vec) []Hit {
	var hs []Hit
	for _, e := range o.ents {
		if d2 := Dist2(e.pos, p); d2 <= e.r2 {
			hs = append(hs, Hit{Key: e.key, Rev: e.rev, Dist2: d2, Weight: e.weight})
		}
	}
	sortHits(hs)
	return hs
}

func (o *oracle) nearest(p Vec, limit int) []Hit {
	hs := o.covering(p)
	var w uint64
	for i, h := range hs {
		w += uint64(h.Weight)
		if w > uint64(limit) {
			return hs[:i]
		}
	}
	return hs
}

func sortHits(hs []Hit) {
	slices.SortFunc(hs, func(a, b Hit) int {
		switch ra, rb := a.Rank(), b.Rank(); {
		case ra < rb:
			return -1
		case ra > rb:
			return 1
		}
		return 0
	})
}

func checkHits(t *testing.T, what string, got, want []Hit) {
	t.Helper()
	got = slices.Clone(got)
	sortHits(got)
	if !slices.Equal(got, want) {
		t.Fatalf("%s: got %d hits, want %d\ngot  %v\nwant %v", what, len(got), len(want), head(got), head(want))
	}
}

func head(hs []Hit) []Hit { return hs[:min(len(hs), 12)] }

// point draws a position that is often on a cell border, at a world corner
// or edge, just outside the bounds, or near another point.
func point(rng *rand.Rand, cell float32, near []Vec) Vec {
	coord := func() float32 {
		switch rng.IntN(6) {
		case 0: // a cell border
			return float32(rng.IntN(int(2*Bound/cell)+1))*cell - Bound
		case 1: // an edge or corner
			return []float32{-Bound, Bound, -Bound - 50, Bound + 50, -Bound + 0.001}[rng.IntN(5)]
		default:
			return (rng.Float32()*2 - 1) * Bound
		}
	}
	var p Vec
	if len(near) > 0 && rng.IntN(2) == 0 {
		c := near[rng.IntN(len(near))]
		p = Vec{c.X + rng.Float32()*400 - 200, c.Y + rng.Float32()*400 - 200, c.Z}
	} else {
		p = Vec{coord(), coord(), 0}
	}
	p.Z = rng.Float32()*300 - 100
	if rng.IntN(8) == 0 {
		p.Z = 0
	}
	return p
}

func radius(rng *rand.Rand) float32 {
	switch rng.IntN(10) {
	case 0:
		return float32(math.Inf(1))
	case 1:
		return 0
	case 2:
		return 300
	}
	return rng.Float32() * 400
}

// TestQueriesMatchOracle builds random worlds, mutates them (moves across
// cells, radius changes, removals) and compares every query with the oracle.
func TestQueriesMatchOracle(t *testing.T) {
	for _, cell := range []float32{32, 64, 250, 1000} {
		for seed := range uint64(8) {
			rng := rand.New(rand.NewPCG(seed, uint64(cell)))
			g := New(cell)
			o := &oracle{ents: map[Handle]oracleEnt{}}
			hot := []Vec{point(rng, cell, nil), point(rng, cell, nil), {Bound, Bound, 0}}
			var live []Handle
			for range 600 + rng.IntN(600) {
				key := uint32(rng.IntN(1 << 20))
				pos, r := point(rng, cell, hot), radius(rng)
				if rng.IntN(10) == 0 && len(live) > 0 { // same position as another entity: ties
					pos = o.ents[live[rng.IntN(len(live))]].pos
				}
				h := g.Insert(key, pos, r)
				w := uint32(1)
				if rng.IntN(8) == 0 {
					w = 1 + uint32(rng.IntN(6))
					g.SetWeight(h, w)
				}
				if _, dup := o.ents[h]; dup {
					t.Fatalf("Insert returned live handle %d", h)
				}
				rev := uint32(rng.IntN(1000))
				g.SetRev(h, rev)
				o.ents[h] = oracleEnt{key, rev, pos, r * r, w}
				live = append(live, h)
			}
			for round := range 6 {
				if round%2 == 1 {
					g.Compact() // results must not change, and later changes still work
				}
				for range 150 {
					i := rng.IntN(len(live))
					h := live[i]
					e := o.ents[h]
					switch rng.IntN(5) {
					case 4:
						e.rev++
						g.SetRev(h, e.rev)
					case 0:
						g.Remove(h)
						delete(o.ents, h)
						live[i] = live[len(live)-1]
						live = live[:len(live)-1]
					case 1:
						r := radius(rng)
						g.SetRadius(h, r)
						e.r2 = r * r
					default:
						if rng.IntN(2) == 0 {
							e.pos = point(rng, cell, hot)
						} else {
							e.pos.X += float32(rng.IntN(3)-1) * cell // cross a cell border
						}
						g.Move(h, e.pos)
						if got := g.Position(h); got != e.pos {
							t.Fatalf("Position: got %v, want %v", got, e.pos)
						}
					}
					if _, ok := o.ents[h]; ok {
						o.ents[h] = e
					}
				}
				if g.Len() != len(o.ents) {
					t.Fatalf("Len: got %d, want %d", g.Len(), len(o.ents))
				}
				var buf []Hit
				for q := range 40 {
					p := point(rng, cell, hot)
					buf = g.Covering(p, buf[:0])
					checkHits(t, "Covering", buf, o.covering(p))
					limit := []int{1, 2, 5, 16, 100, 1000}[q%6]
					buf = g.Nearest(p, limit, buf[:0])
					checkHits(t, "Nearest", buf, o.nearest(p, limit))
				}
			}
		}
	}
}

func TestNearestTiesByKey(t *testing.T) {
	g := New(64)
	p := Vec{10, 10, 0}
	// Five entities at the same distance (4 m), inserted in shuffled key order.
	for i, key := range []uint32{9, 3, 7, 1, 5} {
		a := float64(i) * 2 * math.Pi / 5
		g.Insert(key, Vec{10 + float32(4*math.Cos(a)), 10 + float32(4*math.Sin(a)), 0}, 100)
	}
	// Same distance on an axis only, so the float32 distances are exactly equal.
	g2 := New(64)
	for _, key := range []uint32{9, 3, 7, 1, 5} {
		g2.Insert(key, Vec{10, 14, 0}, 100)
	}
	g2.Insert(2, Vec{10, 10, 3}, 100) // nearer
	cases := []struct {
		limit int
		want  []uint32
	}{
		{1, []uint32{2}},
		{2, []uint32{2, 1}},
		{3, []uint32{2, 1, 3}},
		{5, []uint32{2, 1, 3, 5, 7}},
		{9, []uint32{2, 1, 3, 5, 7, 9}},
	}
	for _, c := range cases {
		hs := g2.Nearest(p, c.limit, nil)
		sortHits(hs)
		var got []uint32
		for _, h := range hs {
			got = append(got, h.Key)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("limit %d: got keys %v, want %v", c.limit, got, c.want)
		}
	}
	if got := len(g.Nearest(p, 3, nil)); got != 3 {
		t.Errorf("ring of five: got %d hits, want 3", got)
	}
}

// TestNearestChains: a chain root weighs 1 + its attached objects and is
// taken whole or not at all; the first one that does not fit ends the list.
func TestNearestChains(t *testing.T) {
	p := Vec{}
	type ent struct {
		key    uint32
		dist   float32
		weight uint32
	}
	world := []ent{{1, 1, 1}, {2, 2, 3}, {3, 3, 1}, {4, 4, 5}, {5, 5, 1}}
	cases := []struct {
		limit int
		want  []uint32
	}{
		{1, []uint32{1}},
		{3, []uint32{1}},    // the chain of 3 at 2 m does not fit in 2 left
		{4, []uint32{1, 2}}, // it fits exactly
		{5, []uint32{1, 2, 3}},
		{9, []uint32{1, 2, 3}}, // the chain of 5 at 4 m needs 10
		{10, []uint32{1, 2, 3, 4}},
		{11, []uint32{1, 2, 3, 4, 5}},
	}
	g := New(64)
	for _, e := range world {
		h := g.Insert(e.key, Vec{e.dist, 0, 0}, 50)
		g.SetWeight(h, e.weight)
	}
	for _, c := range cases {
		hs := g.Nearest(p, c.limit, nil)
		sortHits(hs)
		var got []uint32
		for _, h := range hs {
			got = append(got, h.Key)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("limit %d: got keys %v, want %v", c.limit, got, c.want)
		}
	}
}

// TestPrefixMatchesSort checks prefix (a permutation, for SelectNearest)
// and Grid.choose (Nearest's one-pass variant, with a scratch buffer reused
// across cases) against a sort.
func TestPrefixMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	g := New(64)
	for i := range 2300 {
		n := rng.IntN(60)
		if i >= 2000 { // around and above minBucketed: the bucket round
			n = minBucketed/2 + rng.IntN(5000)
		}
		hs := make([]Hit, n)
		keys := rng.Perm(n) // keys are unique, as in a grid
		for j := range hs {
			d2 := float32(rng.IntN(10))
			if i >= 2000 && rng.IntN(4) != 0 {
				d2 = rng.Float32() * float32(1+rng.IntN(2)*1e6)
			}
			hs[j] = Hit{Key: uint32(keys[j]), Dist2: d2, Weight: 1 + uint32(rng.IntN(3)*rng.IntN(2))}
		}
		limit := rng.IntN(2*n + 1)
		want := slices.Clone(hs)
		sortHits(want)
		var w uint64
		k := len(want)
		for j, h := range want {
			if w += uint64(h.Weight); w > uint64(limit) {
				k = j
				break
			}
		}
		chosen := slices.Clone(hs)
		got := hs[:prefix(hs, uint64(limit))]
		sortHits(got)
		if !slices.Equal(got, want[:k]) {
			t.Fatalf("prefix: case %d limit %d: got %v, want %v", i, limit, got, want[:k])
		}
		var total uint64
		lo, hi := span(chosen, &total)
		got = chosen[:g.choose(chosen, uint64(limit), total, lo, hi)]
		sortHits(got)
		if !slices.Equal(got, want[:k]) {
			t.Fatalf("choose: case %d limit %d: got %v, want %v", i, limit, got, want[:k])
		}
	}
}

func TestQueriesDoNotAllocate(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := New(64)
	for i := range 5000 {
		g.Insert(uint32(i), Vec{rng.Float32()*2000 - 1000, rng.Float32()*2000 - 1000, 0}, 200)
	}
	buf := make([]Hit, 0, 4096)
	p := Vec{1, 2, 3}
	if n := testing.AllocsPerRun(100, func() { buf = g.Covering(p, buf[:0]) }); n != 0 {
		t.Errorf("Covering: got %v allocs, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { buf = g.Nearest(p, 100, buf[:0]) }); n != 0 {
		t.Errorf("Nearest: got %v allocs, want 0", n)
	}
}

func TestHandlesReused(t *testing.T) {
	g := New(64)
	a := g.Insert(1, Vec{}, 10)
	b := g.Insert(2, Vec{1, 0, 0}, 10)
	g.Remove(a)
	c := g.Insert(3, Vec{2, 0, 0}, 10)
	if c != a {
		t.Errorf("Insert after Remove: got handle %d, want reused %d", c, a)
	}
	if got := g.Key(b); got != 2 {
		t.Errorf("Key(b): got %d, want 2", got)
	}
	if got := g.Key(c); got != 3 {
		t.Errorf("Key(c): got %d, want 3", got)
	}
}

func TestScopes(t *testing.T) {
	s := NewScopes(64)
	a, b := Scope{World: 0, Interior: 0}, Scope{World: 7, Interior: 3}
	s.Get(a).Insert(1, Vec{}, 10)
	h := s.Get(b).Insert(2, Vec{}, 10)
	if got := s.Get(a).Covering(Vec{}, nil); len(got) != 1 || got[0].Key != 1 {
		t.Errorf("scope a: got %v, want key 1 only", got)
	}
	if s.Lookup(Scope{World: 8}) != nil {
		t.Errorf("Lookup of an unused scope: got a grid, want nil")
	}
	s.Get(b).Remove(h)
	s.Prune(b)
	if s.Lookup(b) != nil || s.Len() != 1 {
		t.Errorf("after Prune: got %d scopes, want 1", s.Len())
	}
}

func TestNewRejectsCellSize(t *testing.T) {
	for _, size := range []float32{0, MinCell - 1, 2*Bound + 1, float32(math.NaN())} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("New(%v): got no panic, want one", size)
				}
			}()
			New(size)
		}()
	}
	if g := New(MinCell); g.CellSize() != MinCell {
		t.Errorf("New(MinCell): got cell %v", g.CellSize())
	}
}

// TestScopesRemembersLast: Get and Lookup answer from the last scope looked
// up without its map; every answer is the scope's own grid, and a pruned
// grid is never answered again.
func TestScopesRemembersLast(t *testing.T) {
	s := NewScopes(64)
	a, b, c := Scope{}, Scope{World: 7, Interior: 3}, Scope{World: 7}
	ga, gb := s.Get(a), s.Get(b)
	if ga == gb {
		t.Fatal("two scopes got one grid")
	}
	for i, step := range []struct {
		sc   Scope
		want *Grid
	}{{a, ga}, {a, ga}, {b, gb}, {a, ga}, {b, gb}, {b, gb}, {c, nil}, {a, ga}} {
		if got := s.Lookup(step.sc); got != step.want {
			t.Errorf("step %d: Lookup(%v) got %p, want %p", i, step.sc, got, step.want)
		}
		if step.want != nil {
			if got := s.Get(step.sc); got != step.want {
				t.Errorf("step %d: Get(%v) got %p, want %p", i, step.sc, got, step.want)
			}
		}
	}
	s.Get(b)
	s.Prune(b) // empty: dropped, though it was the last looked up
	if got := s.Lookup(b); got != nil {
		t.Errorf("Lookup after Prune: got %p, want nil", got)
	}
	if got := s.Get(b); got == gb || got == nil {
		t.Errorf("Get after Prune: got %p, want a new grid (not %p)", got, gb)
	}
	s.Get(a).Insert(1, Vec{}, 10)
	s.Prune(a) // not empty: kept
	if got := s.Lookup(a); got != ga {
		t.Errorf("Lookup after a Prune that kept it: got %p, want %p", got, ga)
	}
}
