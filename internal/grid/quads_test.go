package grid

import (
	"math/rand/v2"
	"testing"
)

// TestQuadsStayOrdered: after Compact every crowded cell's squares are in
// quad order, and through random inserts, moves (within a square, across
// squares and cells) and removals, every square still marked in order is:
// its run's entities lie in its quads in order, each quad ending where its
// kept end says. It fails if an update that changes a run does not unmark
// its square (put, take, an in-place Move), or if the ends are wrong.
func TestQuadsStayOrdered(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	g := New(64)
	var hs []Handle
	at := func() Vec { return Vec{rng.Float32()*256 - 128, rng.Float32()*256 - 128, 0} }
	for key := range uint32(20_000) { // ~1,250 a cell in 16 cells
		hs = append(hs, g.Insert(key, at(), 50))
	}
	g.Compact()
	if n := checkQuads(t, g); n < 16*subN {
		t.Fatalf("after Compact: %d squares in quad order, want every square of the 16 crowded cells (%d)", n, 16*subN)
	}
	for op := range 4000 {
		i := rng.IntN(len(hs))
		switch op % 4 {
		case 0:
			hs = append(hs, g.Insert(uint32(100_000+op), at(), 50))
		case 1:
			g.Remove(hs[i])
			hs[i] = hs[len(hs)-1]
			hs = hs[:len(hs)-1]
		case 2: // a small move: mostly within its square
			p := g.Position(hs[i])
			g.Move(hs[i], Vec{p.X + rng.Float32()*4 - 2, p.Y + rng.Float32()*4 - 2, 0})
		default:
			g.Move(hs[i], at())
		}
		if op%97 == 0 {
			checkQuads(t, g)
		}
	}
	left := checkQuads(t, g)
	t.Logf("%d squares still in quad order after 4000 updates", left)
	// A held step's runs order every square they read again (each entity's
	// slot fixed: Position finds it).
	want := make(map[Handle]Vec, len(hs))
	for _, h := range hs {
		want[h] = g.Position(h)
	}
	for cy := g.axis(-128); cy <= g.axis(127); cy++ {
		for cx := g.axis(-128); cx <= g.axis(127); cx++ {
			if c := g.peek(cx, cy); len(c.p) >= subMin {
				// A band from 0 to 30 km: no square wholly nearer or beyond.
				g.heldRuns(nil, 0, c, cx, cy, Vec{}, Vec{1, 0, 0}, 0, 9e8, 9e8)
			}
		}
	}
	if n := checkQuads(t, g); n < 16*subN {
		t.Fatalf("after a held step's runs over every crowded cell: %d squares in quad order, want %d", n, 16*subN)
	}
	for h, p := range want {
		if got := g.Position(h); got != p {
			t.Fatalf("after the runs ordered the squares: handle %d at %v, want %v", h, got, p)
		}
	}
	g.Compact()
	if n := checkQuads(t, g); n < 16*subN {
		t.Fatalf("after a second Compact: %d squares in quad order, want %d", n, 16*subN)
	}
	// Moves alone, small: most stay in their square (in place), some
	// cross into another quad of it.
	for op := range 600 {
		h := hs[rng.IntN(len(hs))]
		p := g.Position(h)
		g.Move(h, Vec{p.X + rng.Float32()*2 - 1, p.Y + rng.Float32()*2 - 1, 0})
		if op%10 == 0 {
			checkQuads(t, g)
		}
	}
}

// checkQuads checks every square marked in quad order and returns how many.
func checkQuads(t *testing.T, g *Grid) int {
	t.Helper()
	n := 0
	for cy := range g.side {
		for cx := range g.side {
			qs := g.quadsAt(cx, cy)
			if qs == nil || qs.clean == 0 {
				continue
			}
			c, e := g.peek(cx, cy), g.subsAt(cx, cy)
			start := int32(0)
			for q := range subN {
				end := e[q]
				if qs.clean>>q&1 == 1 {
					n++
					for i := start; i < end; i++ {
						sq, k := g.quadOf(cx, cy, c.p[i].x, c.p[i].y)
						lo, hi := start, end
						if k > 0 {
							lo = start + int32(qs.at[q][k-1])
						}
						if k < 3 {
							hi = start + int32(qs.at[q][k])
						}
						if sq != q || i < lo || i >= hi {
							t.Fatalf("cell (%d, %d) square %d marked in quad order: entry %d lies in square %d quad %d, whose run is %d..%d", cx, cy, q, i, sq, k, lo, hi)
						}
					}
				}
				start = end
			}
		}
	}
	return n
}

// TestQuadOfMatchesSubOf: a position's quad lies in the square subOf
// gives it (the runs are cut by subOf, the quads by quadOf), in inner and
// edge cells, at square and quad boundaries and beyond the bounds.
func TestQuadOfMatchesSubOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, size := range []float32{64, 100, 30, 9} {
		g := New(size)
		for range 20_000 {
			x := (rng.Float32()*2 - 1) * (Bound + 100)
			y := (rng.Float32()*2 - 1) * (Bound + 100)
			if rng.IntN(4) == 0 { // on a quad's edge
				x = float32(int((x+Bound)/(size/quadSide)))*(size/quadSide) - Bound
			}
			cx, cy := g.axis(x), g.axis(y)
			q, k := g.quadOf(cx, cy, x, y)
			if want := g.subOf(cx, cy, x, y); q != want || k < 0 || k > 3 {
				t.Fatalf("cell %g, (%g, %g) in cell (%d, %d): quadOf square %d quad %d, subOf square %d", size, x, y, cx, cy, q, k, want)
			}
		}
	}
}
