package grid

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// contiguous reports whether every row of g's cells is laid out in one
// array, each non-empty cell's entities right after the previous one's
// room, as Compact leaves them; it returns the first cell that is not.
func contiguous(g *Grid) (cx, cy int, ok bool) {
	for cy := range g.side {
		var next unsafe.Pointer
		for cx := range g.side {
			c := g.peek(cx, cy)
			if c == nil || len(c.p) == 0 {
				continue
			}
			at := unsafe.Pointer(unsafe.SliceData(c.p))
			if next != nil && at != next {
				return cx, cy, false
			}
			next = unsafe.Add(at, uintptr(cap(c.p))*unsafe.Sizeof(pos{}))
		}
	}
	return 0, 0, true
}

// TestGridSettles checks that a grid loaded one entity at a time lays its
// cells out in row order by itself once it holds compactMin entities, again
// when it grew by a third and after a quarter of its entities' worth of
// moves across cells,
// not before, and answers as the oracle does across those Compacts.
func TestGridSettles(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	g := New(64)
	o := &oracle{ents: map[Handle]oracleEnt{}}
	const span = 1500 // meters: a few hundred cells, many entities each
	at := func() Vec {
		return Vec{X: rng.Float32()*2*span - span, Y: rng.Float32()*2*span - span, Z: rng.Float32() * 20}
	}
	var hs []Handle
	insert := func() {
		p, r := at(), float32(50+rng.IntN(250))
		h := g.Insert(uint32(len(hs)), p, r)
		hs = append(hs, h)
		o.ents[h] = oracleEnt{key: uint32(len(hs) - 1), pos: p, r2: r * r, weight: 1}
	}
	check := func(what string) {
		t.Helper()
		for range 20 {
			p := at()
			checkHits(t, what+" covering", g.Covering(p, nil), o.covering(p))
			checkHits(t, what+" nearest", g.Nearest(p, 300, nil), o.nearest(p, 300))
		}
	}

	for len(hs) < compactMin-1 {
		insert()
	}
	if g.compacts != 0 {
		t.Fatalf("compacts below compactMin: got %d, want 0", g.compacts)
	}
	if _, _, ok := contiguous(g); ok {
		t.Fatal("cells laid out in row order before any Compact: the test cannot tell")
	}
	insert() // the compactMin-th: every entity placed since none was laid out
	if g.compacts != 1 {
		t.Fatalf("compacts at compactMin: got %d, want 1", g.compacts)
	}
	// The next at n with 4(n − compactMin) ≥ n.
	for len(hs) < compactMin*4/3 {
		insert()
	}
	if g.compacts != 1 {
		t.Fatalf("compacts before the load grew by a third: got %d, want 1", g.compacts)
	}
	insert()
	if g.compacts != 2 {
		t.Fatalf("compacts once the load grew by a third: got %d, want 2", g.compacts)
	}
	if cx, cy, ok := contiguous(g); !ok {
		t.Fatalf("cell (%d, %d) not after the previous one of its row after settling", cx, cy)
	}
	check("after the load")

	// Moves within a cell do not count; moves across cells do, one
	// placement each, until they reach a quarter of the entities held.
	for range 3 * compactMin {
		h := hs[rng.IntN(len(hs))]
		p := g.Position(h)
		p.Z += 1
		g.Move(h, p)
		e := o.ents[h]
		e.pos = p
		o.ents[h] = e
	}
	if g.compacts != 2 {
		t.Fatalf("compacts after moves within cells: got %d, want 2", g.compacts)
	}
	moved := 0
	for g.compacts == 2 {
		h := hs[rng.IntN(len(hs))]
		p := at()
		if g.cellIndex(p.X, p.Y) == int(g.slots[h].cell) {
			continue
		}
		g.Move(h, p)
		e := o.ents[h]
		e.pos = p
		o.ents[h] = e
		moved++
	}
	if want := (g.Len() + 3) / 4; moved != want {
		t.Fatalf("moves across cells before the next Compact: got %d, want %d (a quarter of the entities held)", moved, want)
	}
	if cx, cy, ok := contiguous(g); !ok {
		t.Fatalf("cell (%d, %d) not after the previous one of its row after moves", cx, cy)
	}
	check("after the moves")
}
