package grid

import (
	"math"
	"math/rand/v2"
	"testing"
)

func testSum(key, rev uint32) uint64 { return uint64(key)*0x9E3779B97F4A7C15 ^ uint64(rev) }

// parts counts the queries answered by a part of a split box, so that the
// tests can check they exercise splits.
var parts int

// last is the box of each cache's last query, calls counts them: cached
// alternates Query and QueryNear from the last box.
var (
	last  = map[*Cache]*Box{}
	calls int
)

// cached returns a cache's whole answer at p: the sure part and the hits.
func cached(t *testing.T, c *Cache, p Vec) []Hit {
	t.Helper()
	var b *Box
	var hs []Hit
	if calls++; calls%2 == 0 {
		b, hs = c.Query(p, nil)
	} else {
		b, hs = c.QueryNear(last[c], p, nil)
	}
	last[c] = b
	var sum, w uint64
	n := 0
	for a := b; a != nil; a = a.up {
		for _, h := range a.sure {
			cl, i := a.g.find(h)
			sum += testSum(cl.m[i].key, cl.m[i].rev)
			w += uint64(cl.m[i].weight)
			n++
		}
	}
	if sum != b.Sum() || w != b.Weight() || n != b.Len() {
		t.Fatalf("box: Sum %d Weight %d Len %d, want %d %d %d", b.Sum(), b.Weight(), b.Len(), sum, w, n)
	}
	if b.up != nil {
		parts++
	}
	return b.AppendSure(p, hs)
}

// top returns the top box b is a part of.
func top(b *Box) *Box {
	for b.up != nil {
		b = b.up
	}
	return b
}

// TestCacheMatchesOracle builds random worlds, queries caches of several
// limits and box sizes at points in and around the same boxes, changes the
// world, and compares every answer with the oracle.
func TestCacheMatchesOracle(t *testing.T) {
	parts = 0
	defer func() {
		t.Logf("%d queries answered by parts", parts)
		if parts == 0 {
			t.Errorf("no query was answered by a part of a split box")
		}
	}()
	type cfg struct {
		limit        int
		side, height float32
		cell         float32
		maxBoxes     int
		nearPlayers  bool
	}
	cfgs := []cfg{
		{1, 64, 16, 64, 1000, true},
		{5, 32, 32, 64, 1000, true},
		{16, 100, 10, 32, 4, true},
		{100, 64, 16, 250, 1000, false},
		{1000, 256, 64, 64, 1000, true},
		{NoLimit, 64, 16, 64, 1000, true},
		{NoLimit, 500, 500, 1000, 3, false},
	}
	for ci, cf := range cfgs {
		for seed := range uint64(4) {
			rng := rand.New(rand.NewPCG(seed, uint64(ci)))
			g := New(cf.cell)
			o := &oracle{ents: map[Handle]oracleEnt{}}
			hot := []Vec{point(rng, cf.cell, nil), point(rng, cf.cell, nil), {Bound, Bound, 0}}
			var live []Handle
			for range 800 + rng.IntN(800) {
				key := uint32(rng.IntN(1 << 20))
				pos, r := point(rng, cf.cell, hot), radius(rng)
				if rng.IntN(10) == 0 && len(live) > 0 {
					pos = o.ents[live[rng.IntN(len(live))]].pos
				}
				h := g.Insert(key, pos, r)
				w := uint32(1)
				if rng.IntN(8) == 0 {
					w = 1 + uint32(rng.IntN(6))
					g.SetWeight(h, w)
				}
				rev := uint32(rng.IntN(1000))
				g.SetRev(h, rev)
				o.ents[h] = oracleEnt{key, rev, pos, r * r, w}
				live = append(live, h)
			}
			c := NewCache(g, cf.limit, cf.side, cf.height, testSum, cf.maxBoxes)
			players := []Vec{point(rng, cf.cell, hot), point(rng, cf.cell, hot), {-Bound - 50, 3, 0}, {1e9, -1e9, 5}}
			for round := range 8 {
				if round%3 == 2 {
					g.Compact()
				}
				for q := range 60 {
					p := players[rng.IntN(len(players))]
					switch q % 4 {
					case 0: // near a player: the same or a neighbouring box
						p.X += rng.Float32()*2*cf.side - cf.side
						p.Y += rng.Float32()*2*cf.side - cf.side
						p.Z += rng.Float32()*cf.height - cf.height/2
					case 1: // on a box border
						p.X = float32(math.Floor(float64(p.X)/float64(cf.side))) * cf.side
					case 2:
						p = point(rng, cf.cell, hot)
					case 3: // a corner of a box or of a part (a half or a quarter)
						at := func(v, size float32) float32 {
							q := float32(math.Floor(float64(v)/float64(size))) * size
							return q + size*float32(rng.IntN(5))/4 - float32(rng.IntN(2))*0.001
						}
						p = Vec{at(p.X, cf.side), at(p.Y, cf.side), at(p.Z, cf.height)}
					}
					want := o.nearest(p, min(cf.limit, math.MaxInt32))
					if cf.limit == NoLimit {
						want = o.covering(p)
					}
					reps := buildAfter + 2 // the grid, then a box, then a part
					if q%4 == 2 {
						reps = 1 // anywhere: rarely in a box again
					}
					for range reps {
						checkHits(t, "cached", cached(t, c, p), want)
					}
				}
				// Changes, some near the players' boxes.
				for range 30 + rng.IntN(60) {
					i := rng.IntN(len(live))
					h := live[i]
					e := o.ents[h]
					switch rng.IntN(6) {
					case 0:
						e.rev++
						g.SetRev(h, e.rev)
					case 1:
						g.Remove(h)
						delete(o.ents, h)
						live[i] = live[len(live)-1]
						live = live[:len(live)-1]
						continue
					case 2:
						r := radius(rng)
						g.SetRadius(h, r)
						e.r2 = r * r
					case 3:
						e.weight = 1 + uint32(rng.IntN(4))
						g.SetWeight(h, e.weight)
					default:
						pl := players[rng.IntN(len(players))]
						e.pos = Vec{pl.X + rng.Float32()*600 - 300, pl.Y + rng.Float32()*600 - 300, rng.Float32() * 50}
						if !finite(e.pos.X) || !finite(e.pos.Y) {
							e.pos = point(rng, cf.cell, hot)
						}
						g.Move(h, e.pos)
					}
					o.ents[h] = e
				}
				if rng.IntN(3) == 0 { // an insert far away, sometimes with a huge radius
					pos, r := point(rng, cf.cell, nil), float32(100)
					if rng.IntN(2) == 0 {
						r = float32(math.Inf(1))
					}
					h := g.Insert(uint32(rng.IntN(1<<20)), pos, r)
					o.ents[h] = oracleEnt{g.Key(h), 0, pos, r * r, 1}
					live = append(live, h)
				}
			}
		}
	}
}

// TestCacheEmptyGrid checks a cache over a grid that empties and fills again.
func TestCacheEmptyGrid(t *testing.T) {
	g := New(64)
	c := NewCache(g, 10, 64, 16, testSum, 10)
	p := Vec{1, 2, 3}
	if hs := cached(t, c, p); len(hs) != 0 {
		t.Fatalf("empty grid: got %v", hs)
	}
	h := g.Insert(7, Vec{5000, 5000, 0}, float32(math.Inf(1)))
	if hs := cached(t, c, p); len(hs) != 1 || hs[0].Key != 7 {
		t.Fatalf("after insert: got %v, want key 7", hs)
	}
	g.Remove(h)
	if hs := cached(t, c, p); len(hs) != 0 {
		t.Fatalf("after remove: got %v", hs)
	}
}

// TestCacheKeepsBoxesAcrossFarChanges checks that a change far from a box
// leaves it valid (it is not rebuilt) and a near one does not.
func TestCacheKeepsBoxesAcrossFarChanges(t *testing.T) {
	g := New(64)
	for i := range 200 {
		g.Insert(uint32(i), Vec{float32(i%20) * 10, float32(i/20) * 10, 0}, 100)
	}
	far := g.Insert(1000, Vec{-5000, -5000, 0}, 100)
	c := NewCache(g, 50, 64, 16, nil, 10)
	p := Vec{50, 50, 0}
	for range buildAfter - 1 { // to the grid; the next one builds
		c.Query(p, nil)
	}
	if b, _ := c.Query(p, nil); b == whole {
		t.Fatalf("query %d: the box is not built", buildAfter)
	}
	builds := c.Stats().Builds
	g.Move(far, Vec{-5100, -5000, 0})
	b, _ := c.Query(p, nil)
	if b == whole || c.Stats().Builds != builds {
		t.Fatalf("a change 7 km away rebuilt the box")
	}
	// A change in the same block of cells (1 km) but out of the box's
	// reach (its radius 100 m and the 50 nearest) leaves it valid too.
	mid := g.Insert(1001, Vec{-700, -700, 0}, 10)
	if b, _ = c.Query(p, nil); b == whole || c.Stats().Builds != builds {
		t.Fatalf("a change out of reach in the same block rebuilt the box")
	}
	g.Move(mid, Vec{-720, -700, 0})
	if b, _ = c.Query(p, nil); b == whole || c.Stats().Builds != builds {
		t.Fatalf("a second change out of reach rebuilt the box")
	}
	built := top(b).built
	g.SetRev(0, 3)
	if b, _ = c.Query(p, nil); b != whole {
		t.Fatalf("a change in the box's blocks left it in use")
	}
	for range buildAfter - 1 {
		b, _ = c.Query(p, nil)
	}
	if c.Stats().Builds != builds+1 || top(b).built == built {
		t.Fatalf("a change in the box's cells did not rebuild it")
	}
}

// TestCachePacing checks that a box is built on its buildAfter-th query, and
// that builds stop when the credit runs out, queries going to the grid.
func TestCachePacing(t *testing.T) {
	g := New(64)
	for i := range 100 {
		g.Insert(uint32(i), Vec{float32(i) * 30, 0, 0}, float32(math.Inf(1)))
	}
	c := NewCache(g, 5, 16, 16, nil, 1<<20)
	p := Vec{1, 1, 1}
	for i := range buildAfter - 1 {
		if b, _ := c.Query(p, nil); b != whole {
			t.Fatalf("query %d: got a box, want the grid", i+1)
		}
	}
	if b, _ := c.Query(p, nil); b == whole {
		t.Fatalf("query %d: got the grid, want a box", buildAfter)
	}
	if st := c.Stats(); st.Queries != buildAfter || st.Grid != buildAfter-1 || st.Builds != 1 {
		t.Fatalf("got %+v, want %d queries, %d to the grid, 1 build", st, buildAfter, buildAfter-1)
	}
	// Each box queried buildAfter times: builds take topCost of credit,
	// queries earn 1.
	c = NewCache(g, 5, 16, 16, nil, 1<<20)
	const n = 3 * maxCredit / topCost
	for i := range n {
		q := Vec{float32(i) * 16, 100, 0}
		for range buildAfter {
			c.Query(q, nil)
		}
	}
	st := c.Stats()
	if max := uint64(maxCredit+buildAfter*n) / topCost; st.Builds > max || st.Builds < max/2 {
		t.Fatalf("got %d builds for %d boxes, want at most %d (and not far below)", st.Builds, n, max)
	}
}

func TestCacheQueriesDoNotAllocate(t *testing.T) {
	g := New(64)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range 5000 {
		g.Insert(uint32(i), Vec{rng.Float32()*2000 - 1000, rng.Float32()*2000 - 1000, 0}, 150)
	}
	c := NewCache(g, 100, 64, 16, testSum, 100)
	buf := make([]Hit, 0, 4096)
	p := Vec{10, 10, 0}
	for range buildAfter + 4 { // built, and its part too
		c.Query(p, buf)
	}
	if b, _ := c.Query(p, buf); b == whole || c.Stats().Builds == 0 {
		t.Fatalf("the box of p is not built")
	}
	if n := testing.AllocsPerRun(100, func() { _, buf = c.Query(p, buf[:0]) }); n != 0 {
		t.Fatalf("Query allocates %v times", n)
	}
}

// TestCacheTightBounds places entities where the box bounds are tight: B
// beyond A on a diagonal of the box through its center, just near enough to
// win at the far corner (nearest-1); and an entity whose radius just misses
// or just reaches a corner (covering). The answers at the corners must be the
// grid's.
func TestCacheTightBounds(t *testing.T) {
	const side, height = 64, 16
	c0 := [3]float64{side / 2, side / 2, height / 2}
	half := [3]float64{side / 2, side / 2, height / 2}
	h := math.Sqrt(half[0]*half[0] + half[1]*half[1] + half[2]*half[2])
	for corner := range 8 {
		var u [3]float64 // unit vector from the center to the corner
		var at Vec
		for ax := range 3 {
			s := float64(corner>>ax&1)*2 - 1
			u[ax] = s * half[ax] / h
			v := c0[ax] + s*half[ax]
			if s > 0 {
				v -= 0.001 // the upper corner belongs to the next box
			}
			*[]*float32{&at.X, &at.Y, &at.Z}[ax] = float32(v)
		}
		pt := func(d float64) Vec {
			return Vec{float32(c0[0] + u[0]*d), float32(c0[1] + u[1]*d), float32(c0[2] + u[2]*d)}
		}
		for _, delta := range []float64{-0.05, -0.01, 0.01, 0.05, 0.5} {
			// Nearest-1: A at L behind the center, B at L+2h-delta ahead.
			const l = 300
			g := New(64)
			g.Insert(1, pt(-l), float32(math.Inf(1)))
			g.Insert(2, pt(l+2*h-delta), float32(math.Inf(1)))
			c := NewCache(g, 1, side, height, testSum, 10)
			checkHits(t, "tight nearest", cached(t, c, at), sorted(g.Nearest(at, 1, nil)))
			// Covering: an entity ahead whose radius reaches the far
			// corner only with delta to spare.
			g = New(64)
			g.Insert(3, pt(-l), float32(l+h+delta))
			c = NewCache(g, NoLimit, side, height, testSum, 10)
			opp := Vec{float32(2*c0[0]) - at.X, float32(2*c0[1]) - at.Y, float32(2*c0[2]) - at.Z}
			for _, p := range []Vec{at, opp} {
				checkHits(t, "tight covering", cached(t, c, p), sorted(g.Covering(p, nil)))
			}
		}
	}
}

// TestQueryNear checks that the box of the last query is used while p stays
// in it and the grid does not change there, and not after a rebuild.
func TestQueryNear(t *testing.T) {
	g := New(64)
	for i := range 400 {
		g.Insert(uint32(i), Vec{float32(i%20) * 5, float32(i/20) * 5, 0}, 40)
	}
	c := NewCache(g, 30, 16, 8, testSum, 64)
	p := Vec{50, 50, 1}
	var b *Box
	for range buildAfter + 6 { // the box and its parts built
		b, _ = c.Query(p, nil)
	}
	if b.up == nil {
		t.Fatalf("setup: the box of p is not split")
	}
	q := Vec{p.X + 0.001, p.Y, p.Z}
	b2, hs := c.QueryNear(b, q, nil)
	if b2 != b {
		t.Fatalf("QueryNear from the box of a point 1 mm away: got another box")
	}
	checkHits(t, "QueryNear", b2.AppendSure(q, hs), sorted(g.Nearest(q, 30, nil)))
	// Far away: the hint is not used.
	far := Vec{-3000, -3000, 0}
	if b3, hs := c.QueryNear(b, far, nil); b3 == b || len(b3.AppendSure(far, hs)) != 0 {
		t.Fatalf("QueryNear at a point outside the box: got the box, or hits")
	}
	// A change in the box's reach: its parts are dropped with the rebuild,
	// and an old part is not used again.
	g.SetRev(Handle(210), 7)
	for range buildAfter + 6 {
		c.Query(p, nil)
	}
	b4, hs := c.QueryNear(b, p, nil)
	if b4 == b {
		t.Fatalf("QueryNear used a part of an earlier build")
	}
	checkHits(t, "QueryNear after a rebuild", b4.AppendSure(p, hs), sorted(g.Nearest(p, 30, nil)))
	// After Reset, no box of before is used.
	c.Reset()
	if b5, _ := c.QueryNear(b4, p, nil); b5 != whole {
		t.Fatalf("QueryNear after Reset: got a box, want the grid (a new box's first query)")
	}
}

func sorted(hs []Hit) []Hit {
	sortHits(hs)
	return hs
}
