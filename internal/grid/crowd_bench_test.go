package grid

import (
	"math"
	"math/rand/v2"
	"testing"
)

// crowdLayout is one crowded layout of BenchmarkCrowded and
// TestCrowdedMatchesBrute: entities at ps with radii rs in a grid of the
// given cell, queried at qs with limit.
type crowdLayout struct {
	name  string
	cell  float32
	limit int
	ps    []Vec
	rs    []float32
	qs    []Vec
}

// hotSpots places n entities in spots of per entities each, every one
// within spread meters of its spot's center (the centers spread over a
// square of side meters), with radius r, and one query point by each
// entity (an entity's own view, as the world reconciles players).
func hotSpots(rng *rand.Rand, n, per int, spread, side, r float32) ([]Vec, []float32, []Vec) {
	ps, rs := make([]Vec, n), make([]float32, n)
	var c Vec
	for i := range ps {
		if i%per == 0 {
			c = Vec{(rng.Float32() - 0.5) * side, (rng.Float32() - 0.5) * side, 10}
		}
		a, d := rng.Float64()*2*math.Pi, spread*float32(math.Sqrt(rng.Float64()))
		ps[i] = Vec{c.X + d*float32(math.Cos(a)), c.Y + d*float32(math.Sin(a)), c.Z + rng.Float32()*4}
		rs[i] = r
	}
	qs := make([]Vec, min(n, 512))
	for i := range qs {
		qs[i] = ps[rng.IntN(n)]
	}
	return ps, rs, qs
}

// crowdLayouts are the issue-4 hot spots' queries (decision 0380):
//
//   - players: 1,000 players in 10 hot spots of 100 within 150 m, stream
//     distance 300 m, cell 64 m: reconcilePlayers' Nearest of
//     PlayerLimit+1 and announceMover's Covering;
//   - blips: 10,000 blips over the 12 km world, no distance limit, cell
//     128 m: buildBlipRing's Nearest of the limit and its band (132);
//   - packed: 2,000 entities within 150 m, radius 300 m, cell 64 m: a
//     cut in a crowd (Nearest of 201).
func crowdLayouts() []crowdLayout {
	rng := rand.New(rand.NewPCG(3, 4))
	var ls []crowdLayout
	ps, rs, qs := hotSpots(rng, 1000, 100, 150, 6000, 300)
	ls = append(ls, crowdLayout{"players", 64, 201, ps, rs, qs})
	ps, rs, qs = hotSpots(rng, 10_000, 10_000, 6000*math.Sqrt2, 0, float32(math.Inf(1)))
	ls = append(ls, crowdLayout{"blips", 128, 132, ps, rs, qs})
	ps, rs, qs = hotSpots(rng, 2000, 2000, 150, 0, 300)
	ls = append(ls, crowdLayout{"packed", 64, 201, ps, rs, qs})
	return ls
}

func (l crowdLayout) grid() *Grid {
	g := New(l.cell)
	for i, p := range l.ps {
		g.Insert(uint32(i), p, l.rs[i])
	}
	g.Compact()
	return g
}

// BenchmarkCrowded measures Nearest and Covering in the crowded layouts,
// with the code before decision 0380 (base) side by side.
func BenchmarkCrowded(b *testing.B) {
	for _, l := range crowdLayouts() {
		g := l.grid()
		b.Run(l.name+"/nearest", func(b *testing.B) {
			benchQueries(b, l.qs, func(q Vec, buf []Hit) []Hit { return g.Nearest(q, l.limit, buf) })
		})
		b.Run(l.name+"/nearest-base", func(b *testing.B) {
			benchQueries(b, l.qs, func(q Vec, buf []Hit) []Hit { return g.baseNearest(q, l.limit, buf) })
		})
		if l.name == "blips" {
			continue // every blip covers every point: Covering lists 10,000
		}
		b.Run(l.name+"/covering", func(b *testing.B) {
			benchQueries(b, l.qs, func(q Vec, buf []Hit) []Hit { return g.Covering(q, buf) })
		})
	}
}
