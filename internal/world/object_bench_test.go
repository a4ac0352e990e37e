package world

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"dlmp/internal/config"
	"dlmp/internal/grid"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// The load: 1,000,000 objects, 100,000 pickups, 50,000 labels,
// 10,000 blips and 5,000 zones, 1000 players, uniform over ±4000 m or
// clustered in 10 hot spots. Objects are 80 % uniform and 20 % in the hot
// spots (a map's dense places), stream distance 300 m. Labels, blips and
// zones are another engineer's world code: here they are measured with
// internal/grid and internal/stream directly, as the world will use them.

const hotSpots = 10

type layout struct {
	name string
	hot  bool // players in the hot spots
}

var layouts = []layout{{"uniform", false}, {"hotspots", true}}

// spot returns a point within r of hot spot i.
func spot(rng *rand.Rand, i int, r float64) grid.Vec {
	cx, cy := -3000+float64(i%5)*1500, -1500+float64(i/5)*3000
	a, d := rng.Float64()*2*math.Pi, r*math.Sqrt(rng.Float64())
	return grid.Vec{X: float32(cx + d*math.Cos(a)), Y: float32(cy + d*math.Sin(a)), Z: 10}
}

func uniform(rng *rand.Rand) grid.Vec {
	return grid.Vec{X: float32(rng.Float64()*8000 - 4000), Y: float32(rng.Float64()*8000 - 4000), Z: 10}
}

// entityWorld builds the load: objects, pickups and 1000 vehicles, then
// players joined on nullConns and spawned, with their views full.
func entityWorld(tb testing.TB, objects, pickups, players int, hot bool) (*World, []mover) {
	tb.Helper()
	w, err := New(config.Default(), nil, t0)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	addObjects(tb, w, rng, objects)
	for range pickups {
		if _, err := w.CreatePickup(PickupParams{Model: 1240, Pos: uniform(rng)}); err != nil {
			tb.Fatal(err)
		}
	}
	for range 1000 {
		if _, err := w.CreateVehicle(VehicleParams{Model: 411, Pos: uniform(rng)}); err != nil {
			tb.Fatal(err)
		}
	}
	return w, addPlayers(tb, w, rng, players, hot)
}

func addObjects(tb testing.TB, w *World, rng *rand.Rand, n int) {
	for i := range n {
		pos := uniform(rng)
		if i%5 == 0 {
			pos = spot(rng, rng.IntN(hotSpots), 300)
		}
		if _, err := w.CreateObject(ObjectParams{Model: 1337, Pos: pos}); err != nil {
			tb.Fatal(err)
		}
	}
}

func addPlayers(tb testing.TB, w *World, rng *rand.Rand, n int, hot bool) []mover {
	ms := make([]mover, n)
	for i := range ms {
		var h wire.ServerHello
		p, _ := w.Join(&nullConn{}, &h)
		pos := uniform(rng)
		if hot {
			pos = spot(rng, i%hotSpots, 150)
		}
		if err := w.Spawn(p, SpawnParams{Landing: Landing{Pos: pos}, Skin: 1, Health: 100}); err != nil {
			tb.Fatal(err)
		}
		a := rng.Float64() * 2 * math.Pi
		ms[i] = mover{p: p, pos: pos, dx: float32(7 * 0.05 * math.Cos(a)), dy: float32(7 * 0.05 * math.Sin(a))}
	}
	now := t0
	for range 3 {
		now = now.Add(50 * time.Millisecond)
		w.Tick(now)
	}
	return ms
}

// primLoad is the labels, blips and zones part of the load, with one view of
// each kind per player.
type primLoad struct {
	grids [3]*grid.Grid
	pos   [3][]grid.Vec // by key-1, for the brute-force baseline
	r2    [3]float32
	limit [3]int
	views [][3]*stream.View
	hits  []grid.Hit
	wants []stream.Want
	ops   []stream.Op
}

func newPrimLoad(players int) *primLoad {
	rng := rand.New(rand.NewPCG(9, 10))
	inf := float32(math.Inf(1))
	pr := &primLoad{}
	kinds := [3]struct {
		cell float32
		n    int
		r    float32
		k    stream.Kind
	}{{64, 50_000, 100, stream.Labels}, {256, 10_000, inf, stream.Blips}, {256, 5_000, inf, stream.GangZones}}
	for k, kd := range kinds {
		pr.grids[k] = grid.New(kd.cell)
		for i := range kd.n {
			pos := uniform(rng)
			pr.grids[k].Insert(uint32(i+1), pos, kd.r)
			pr.pos[k] = append(pr.pos[k], pos)
		}
		pr.r2[k], pr.limit[k] = kd.r*kd.r, kd.k.Limit()
	}
	for range players {
		pr.views = append(pr.views, [3]*stream.View{stream.New(pr.limit[0]), stream.New(pr.limit[1]), stream.New(pr.limit[2])})
	}
	return pr
}

// pass reconciles player i's labels, blips and zones at the point.
func (pr *primLoad) pass(i int, at grid.Vec, brute bool) int {
	n := 0
	for k := range 3 {
		hits := pr.hits[:0]
		if brute {
			for j, p := range pr.pos[k] {
				if d := grid.Dist2(at, p); d <= pr.r2[k] {
					hits = append(hits, grid.Hit{Key: uint32(j + 1), Dist2: d, Weight: 1})
				}
			}
			hits = hits[:grid.SelectNearest(hits, pr.limit[k])]
		} else {
			hits = pr.grids[k].Nearest(at, pr.limit[k], hits)
		}
		wants := pr.wants[:0]
		for _, h := range hits {
			wants = append(wants, stream.Want{ID: h.Key, Rev: 1, Dist2: h.Dist2})
		}
		pr.ops = pr.views[i][k].Reconcile(wants, stream.Unlimited, stream.HidesFirst, pr.ops[:0])
		n += len(pr.ops)
		pr.hits, pr.wants = hits, wants
	}
	return n
}

// invalidate makes every view of every player due.
func invalidate(ms []mover) {
	for _, m := range ms {
		m.p.pickAnchor.Invalidate()
		m.p.ent.playerAt.Invalidate()
		m.p.ent.vehicleAt.Invalidate()
		m.p.ent.objectAt.Invalidate()
	}
}

// BenchmarkFullPass: every view of 1000 players computed again (the wanted
// sets and their diff; the views are full, so no packet), objects, pickups,
// players and vehicles through the world's tick, labels, blips and zones
// through grid + stream; the grid against a scan of every entity.
func BenchmarkFullPass(b *testing.B) {
	for _, l := range layouts {
		var (
			w   *World
			ms  []mover
			pr  *primLoad
			now = t0.Add(time.Second)
		)
		for _, mode := range []struct {
			name  string
			brute bool
		}{{"grid", false}, {"brute", true}} {
			b.Run(l.name+"/"+mode.name, func(b *testing.B) {
				if w == nil { // built once per layout, only if a sub-benchmark of it runs
					w, ms = entityWorld(b, 1_000_000, 100_000, 1000, l.hot)
					pr = newPrimLoad(len(ms))
					for i, m := range ms {
						pr.pass(i, m.pos, false)
					}
				}
				w.bruteForce = mode.brute
				defer func() { w.bruteForce = false }()
				var world, other time.Duration
				b.ReportAllocs()
				for b.Loop() {
					invalidate(ms)
					now = now.Add(50 * time.Millisecond)
					t := time.Now()
					w.Tick(now)
					t2 := time.Now()
					for i, m := range ms {
						if n := pr.pass(i, m.pos, mode.brute); n != 0 {
							b.Fatalf("a full pass over unchanged views sent %d ops", n)
						}
					}
					world, other = world+t2.Sub(t), other+time.Since(t2)
				}
				b.ReportMetric(float64(world.Milliseconds())/float64(b.N), "world-ms/pass")
				b.ReportMetric(float64(other.Milliseconds())/float64(b.N), "primLoad-ms/pass")
			})
		}
	}
}

// BenchmarkIncremental: one tick of 1000 players running at 7 m/s, a
// PlayerSync each at 20 Hz, the world streaming what changed (objects,
// pickups, players, vehicles, the moves); the grid against brute force.
func BenchmarkIncremental(b *testing.B) {
	for _, l := range layouts {
		var (
			w   *World
			ms  []mover
			now = t0.Add(time.Second)
		)
		for _, mode := range []struct {
			name  string
			brute bool
		}{{"grid", false}, {"brute", true}} {
			b.Run(l.name+"/"+mode.name, func(b *testing.B) {
				if w == nil {
					w, ms = entityWorld(b, 1_000_000, 100_000, 1000, l.hot)
				}
				w.bruteForce = mode.brute
				defer func() { w.bruteForce = false }()
				var s wire.PlayerSync
				before := w.ents.passes
				b.ReportAllocs()
				for b.Loop() {
					now = now.Add(50 * time.Millisecond)
					step(w, ms, now, &s)
				}
				for i, unit := range []string{"player-views/tick", "vehicle-views/tick", "object-views/tick"} {
					b.ReportMetric(float64(w.ents.passes[i]-before[i])/float64(b.N), unit)
				}
			})
		}
	}
}

// BenchmarkEntityMemory reports the heap per object (1,000,000 of them) and
// per spawned player with their views full (1000 of them, in the hot spots:
// 1000 objects shown each).
func BenchmarkEntityMemory(b *testing.B) {
	b.ReportAllocs()
	var perObject, perPlayer float64
	for b.Loop() {
		before := heap()
		w, err := New(config.Default(), nil, t0)
		if err != nil {
			b.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(7, 8))
		addObjects(b, w, rng, 1_000_000)
		mid := heap()
		ms := addPlayers(b, w, rng, 1000, true)
		after := heap()
		perObject = float64(mid-before) / 1_000_000
		perPlayer = float64(after-mid) / float64(len(ms))
		runtime.KeepAlive(w)
	}
	b.ReportMetric(perObject, "B/object")
	b.ReportMetric(perPlayer, "B/player")
}
