package world

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// The load: 1,000,000 objects, 100,000 pickups, 50,000 labels,
// 10,000 blips and 5,000 zones, 1000 players, uniform over ±4000 m or
// clustered in 10 hot spots. Objects are 80 % uniform and 20 % in the hot
// spots (a map's dense places), stream distance 300 m; labels, blips and
// zones are primsWorld's (uniform). The benchmarks of the engine's passes
// over it are in pass_bench_test.go.

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

// entityWorld builds the load: objects, pickups, 1000 vehicles, 50,000
// labels, 10,000 blips and 5,000 gang zones, then players joined on
// nullConns and spawned, with their views full.
func entityWorld(tb testing.TB, objects, pickups, players int, hot bool) (*World, []mover) {
	tb.Helper()
	return entityWorldAt(tb, 20, objects, pickups, players, hot)
}

// entityWorldAt is entityWorld on a world ticking hz times a second.
func entityWorldAt(tb testing.TB, hz, objects, pickups, players int, hot bool) (*World, []mover) {
	tb.Helper()
	c := testConfig()
	c.Server.TickHz = hz
	w, err := New(c, nil, t0)
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
	addPrims(tb, w, rng, 50_000, 10_000, 5_000)
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

// BenchmarkEntityMemory reports the heap per object (1,000,000 of them) and
// per spawned player with their views full (1000 of them, in the hot spots:
// 1000 objects shown each).
func BenchmarkEntityMemory(b *testing.B) {
	b.ReportAllocs()
	var perObject, perPlayer float64
	for b.Loop() {
		before := heap()
		w, err := New(testConfig(), nil, t0)
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
