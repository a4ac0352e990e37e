package grid

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestCrowdedMatchesBrute checks Nearest and Covering against the brute
// force in crowded random layouts (decision 0380): hundreds to thousands of
// entities packed within tens of meters, many on the same lattice points
// (equal distances: ties decided by key), chain roots of weight up to 5,
// radii from 0 to none, queried on lattice points, cell borders and the
// crowd's edge with limits from 1 to past the crowd. It counts that the
// layouts reach what they are meant to test: cuts inside the crowd, ties
// straddling a cut, and batches of more cells than one flush holds.
func TestCrowdedMatchesBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var cuts, tiedCuts, queries int
	for round := range 24 {
		cell := []float32{8, 16, 64, 128}[round%4]
		n := 200 + rng.IntN(2800)
		spread := float32(10 + rng.IntN(150))
		c := Vec{(rng.Float32() - 0.5) * 2 * Bound, (rng.Float32() - 0.5) * 2 * Bound, 0}
		if round%6 == 0 {
			c = Vec{Bound - 20, -Bound + 5, 0} // a crowd in a world corner
		}
		g, o := New(cell), &oracle{ents: map[Handle]oracleEnt{}}
		for i := range n {
			p := Vec{
				c.X + float32(math.Round(float64((rng.Float32()-0.5)*spread))),
				c.Y + float32(math.Round(float64((rng.Float32()-0.5)*spread))),
				float32(rng.IntN(3)),
			}
			var r float32
			switch rng.IntN(5) {
			case 0:
				r = float32(math.Inf(1))
			case 1:
				r = 0
			default:
				r = float32(rng.IntN(int(spread) + 50))
			}
			h := g.Insert(uint32(i), p, r)
			w := uint32(1)
			if rng.IntN(8) == 0 {
				w = uint32(2 + rng.IntN(4))
				g.SetWeight(h, w)
			}
			o.ents[h] = oracleEnt{key: uint32(i), pos: p, r2: r * r, weight: w}
		}
		if round%2 == 1 {
			g.Compact()
		}
		for q := range 40 {
			p := Vec{
				c.X + float32(math.Round(float64((rng.Float32()-0.5)*spread*1.4))),
				c.Y + float32(math.Round(float64((rng.Float32()-0.5)*spread*1.4))),
				float32(rng.IntN(3)),
			}
			if q%5 == 0 { // on a cell border
				p.X = float32(math.Round(float64((p.X+Bound)/cell)))*cell - Bound
			}
			limit := []int{1, 2, 7, 50, 132, 201, 1000, 5000}[q%8]
			name := fmt.Sprintf("round %d (cell %v, %d entities) query %d at %v limit %d", round, cell, n, q, p, limit)
			checkHits(t, name+": Covering", g.Covering(p, nil), o.covering(p))
			want := o.nearest(p, limit)
			checkHits(t, name+": Nearest", g.Nearest(p, limit, nil), want)
			queries++
			all := o.covering(p)
			if len(want) < len(all) {
				cuts++
				if len(want) > 0 && all[len(want)].Dist2 == want[len(want)-1].Dist2 {
					tiedCuts++
				}
			}
		}
	}
	if cuts < queries/4 || tiedCuts < 10 {
		t.Fatalf("%d queries: %d cut the crowd, %d at a tie; want a quarter and 10", queries, cuts, tiedCuts)
	}
}

// TestBatchFlushes checks Nearest across more listed cells than one batch
// holds (a ring of hundreds of occupied cells), and Covering, which walks
// its cells without a batch (decision 0380, amended), over the same square.
func TestBatchFlushes(t *testing.T) {
	g, o := New(8), &oracle{ents: map[Handle]oracleEnt{}}
	for i := range 40 * 40 {
		p := Vec{float32(i%40*8 + 4), float32(i/40*8 + 4), 0}
		h := g.Insert(uint32(i), p, float32(math.Inf(1)))
		o.ents[h] = oracleEnt{key: uint32(i), pos: p, r2: float32(math.Inf(1)), weight: 1}
	}
	p := Vec{160, 160, 0}
	checkHits(t, "Covering", g.Covering(p, nil), o.covering(p))
	for _, limit := range []int{400, 1599, 1600} {
		checkHits(t, fmt.Sprintf("Nearest %d", limit), g.Nearest(p, limit, nil), o.nearest(p, limit))
	}
}
