package world

import (
	"dlmp/internal/threadcpu"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"dlmp/internal/grid"
)

// primsWorld builds a world of 50,000 labels (draw distance 20..100 m),
// 10,000 blips (one in five with a draw distance of 200..500 m) and 5,000
// gang zones shown to everyone (sides 20..300 m), uniformly over ±4000 m in
// one scope, and the given number of spawned players with full views.
func primsWorld(tb testing.TB, labels, blips, zones, players int) (*World, []mover) {
	tb.Helper()
	w, _ := loadedWorld(tb, 0, 0)
	addPrims(tb, w, rand.New(rand.NewPCG(7, 8)), labels, blips, zones)
	return loadedWorldWith(tb, w, players)
}

// addPrims adds primsWorld's labels, blips and gang zones to w.
func addPrims(tb testing.TB, w *World, r *rand.Rand, labels, blips, zones int) {
	tb.Helper()
	coord := func() float32 { return float32(r.Float64()*8000 - 4000) }
	for range labels {
		if _, err := w.CreateLabel(LabelParams{Text: "Ammu-Nation", Color: 0xFFAA00,
			Pos: grid.Vec{X: coord(), Y: coord(), Z: 10}, DrawDistance: float32(20 + r.IntN(81))}); err != nil {
			tb.Fatal(err)
		}
	}
	for i := range blips {
		bp := BlipParams{Sprite: uint8(1 + r.IntN(63)), Pos: grid.Vec{X: coord(), Y: coord()}}
		if i%5 == 0 {
			bp.DrawDistance = float32(200 + r.IntN(301))
		}
		if _, err := w.CreateBlip(bp); err != nil {
			tb.Fatal(err)
		}
	}
	for range zones {
		x, y := coord(), coord()
		id, err := w.CreateGangZone(ZoneParams{Min: [2]float32{x, y},
			Max: [2]float32{x + float32(20+r.IntN(281)), y + float32(20+r.IntN(281))}, Color: 0xFF0000, Alpha: 96})
		if err != nil {
			tb.Fatal(err)
		}
		if err := w.ShowGangZone(id, nil); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkPrimsReconcile: one slow pass of 1000 players (each moved 7 m,
// one second of running) over 50,000 labels, 10,000 blips and 5,000 gang
// zones, per kind and all together: the grids against a scan of every
// primitive.
func BenchmarkPrimsReconcile(b *testing.B) {
	kinds := []struct {
		name string
		run  func(w *World, p *Player)
	}{
		{"labels", (*World).reconcileLabels},
		{"blips", (*World).reconcileBlips},
		{"zones", (*World).reconcileZones},
		{"all", func(w *World, p *Player) { w.reconcileLabels(p); w.reconcileBlips(p); w.reconcileZones(p) }},
	}
	for _, mode := range []struct {
		name  string
		brute bool
	}{{"grid", false}, {"brute", true}} {
		b.Run(mode.name, func(b *testing.B) {
			w, ms := primsWorld(b, 50_000, 10_000, 5_000, 1000)
			w.bruteForce = mode.brute
			for _, k := range kinds {
				b.Run(k.name, func(b *testing.B) {
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					defer reportCPU(b, threadcpu.Spent())
					b.ReportAllocs()
					for b.Loop() {
						for i := range ms {
							m := &ms[i]
							m.pos.X += 7
							if m.pos.X > 4000 {
								m.pos.X -= 8000
							}
							m.p.pos = m.pos
							k.run(w, m.p)
						}
					}
				})
			}
		})
	}
}

// BenchmarkPrimsMemory reports the heap per label, blip and gang zone
// (struct, map entry, grid entry), 50,000 / 10,000 / 5,000 of them.
func BenchmarkPrimsMemory(b *testing.B) {
	b.ReportAllocs()
	var perLabel, perBlip, perZone, perPlayer float64
	for b.Loop() {
		h0 := heap()
		w, _ := primsWorld(b, 50_000, 0, 0, 0)
		h1 := heap()
		w2, _ := primsWorld(b, 0, 10_000, 0, 0)
		h2 := heap()
		w3, _ := primsWorld(b, 0, 0, 5_000, 0)
		h3 := heap()
		w4, _ := primsWorld(b, 50_000, 10_000, 5_000, 0)
		h4 := heap()
		_, ms := loadedWorldWith(b, w4, 1000)
		h5 := heap()
		empty := float64(heapOfEmpty(b))
		perLabel = (float64(h1-h0) - empty) / 50_000
		perBlip = (float64(h2-h1) - empty) / 10_000
		perZone = (float64(h3-h2) - empty) / 5_000
		perPlayer = float64(h5-h4) / float64(len(ms))
		runtime.KeepAlive(w)
		runtime.KeepAlive(w2)
		runtime.KeepAlive(w3)
		runtime.KeepAlive(w4)
	}
	b.ReportMetric(perLabel, "B/label")
	b.ReportMetric(perBlip, "B/blip")
	b.ReportMetric(perZone, "B/zone")
	b.ReportMetric(perPlayer, "B/player")
}

// heapOfEmpty is the heap of a world with no primitives and no players.
func heapOfEmpty(tb testing.TB) uint64 {
	h0 := heap()
	w, _ := primsWorld(tb, 0, 0, 0, 0)
	h1 := heap()
	runtime.KeepAlive(w)
	return h1 - h0
}

// BenchmarkZoneReconcile: the zone pass of 1000 players with a typical
// server's 500 gang zones (all within the 1024 limit: no nearest cut) and
// with 5,000, the grid against a scan.
func BenchmarkZoneReconcile(b *testing.B) {
	for _, n := range []int{500, 5000} {
		for _, mode := range []struct {
			name  string
			brute bool
		}{{"grid", false}, {"brute", true}} {
			b.Run(fmt.Sprintf("zones=%d/%s", n, mode.name), func(b *testing.B) {
				w, ms := primsWorld(b, 0, 0, n, 1000)
				w.bruteForce = mode.brute
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				defer reportCPU(b, threadcpu.Spent())
				b.ReportAllocs()
				for b.Loop() {
					for i := range ms {
						w.reconcileZones(ms[i].p)
					}
				}
			})
		}
	}
}

// reportCPU reports the thread CPU time per op since start: on this shared
// machine wall time also counts the waiting. The caller is locked to its
// thread.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(threadcpu.Spent()-start)/1e6/float64(b.N), "cpu-ms/op")
}
