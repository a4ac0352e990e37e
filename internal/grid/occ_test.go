package grid

import (
	"math/rand/v2"
	"testing"
)

// TestOccupancyFollowsCells: after inserts, moves across and within cells,
// removals and compactions, a cell's occupancy bit is set exactly when it
// holds an entity (scanDiff reads only those cells).
func TestOccupancyFollowsCells(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := New(64)
	at := func() Vec { // a few cells, some emptied and filled again
		return Vec{float32(rng.IntN(5))*64 - 100 + rng.Float32()*60, float32(rng.IntN(5))*64 - 100 + rng.Float32()*60, 0}
	}
	var hs []Handle
	for round := range 3000 {
		switch r := rng.IntN(10); {
		case r < 4 || len(hs) == 0:
			hs = append(hs, g.Insert(uint32(round), at(), 100))
		case r < 8:
			g.Move(hs[rng.IntN(len(hs))], at())
		default:
			i := rng.IntN(len(hs))
			g.Remove(hs[i])
			hs[i] = hs[len(hs)-1]
			hs = hs[:len(hs)-1]
		}
		if round%700 == 0 {
			g.Compact()
		}
		checkOccupancy(t, g, round)
	}
}

func checkOccupancy(t *testing.T, g *Grid, round int) {
	t.Helper()
	for cy := range g.side {
		for cx := range g.side {
			c := g.peek(cx, cy)
			held := c != nil && len(c.p) > 0
			by, bx := cy/blockSide, cx/blockSide
			if g.occ == nil {
				if held {
					t.Fatalf("round %d: cell (%d, %d) holds %d entities, no occupancy", round, cx, cy, len(c.p))
				}
				continue
			}
			got := g.occupied(bx, by, cy, cx, cx) != 0
			if got != held {
				t.Fatalf("round %d: cell (%d, %d): got occupied %v, want %v", round, cx, cy, got, held)
			}
		}
	}
}

// TestOccupiedMask: occupied keeps exactly the columns x0..x1 of the block
// row.
func TestOccupiedMask(t *testing.T) {
	g := New(64)
	g.Insert(1, Vec{}, 1) // allocates occ
	for i := range blockSide {
		g.occ[i] = 0xffff
	}
	for x0 := -3; x0 < blockSide+3; x0++ {
		for x1 := x0; x1 < blockSide+3; x1++ {
			var want uint16
			for i := max(x0, 0); i <= min(x1, blockSide-1); i++ {
				want |= 1 << i
			}
			if got := g.occupied(0, 0, 0, x0, x1); got != want {
				t.Fatalf("columns %d..%d: got %016b, want %016b", x0, x1, got, want)
			}
		}
	}
}
