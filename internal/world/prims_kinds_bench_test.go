package world

import (
	"dlmp/internal/threadcpu"
	"runtime"
	"testing"
	"time"

	"dlmp/internal/wire"
)

// BenchmarkPrimsKinds: the passes of this part of the tick one kind at a
// time, on BenchmarkFullPass's world without its objects and pickups (1000
// players, 1000 vehicles, 50,000 labels, 10,000 blips, 5,000 gang zones),
// so that each kind's cost is measured alone (cpu-ms/op: 1000 views, thread
// CPU). Before each op (untimed) every player syncs a point:
//
//   - shifted: 1 cm from the last (alternating sides), as in
//     BenchmarkFullPass/moved: the full pass of players who shift a little;
//   - ran: a step along their running direction of what they run between
//     two passes of the kind in BenchmarkIncremental (labels and blips: a
//     second at 7 m/s; zones: ZoneRequery; vehicles: EntityRequery), the
//     clock moved by the time it takes.
//
// markers: the blips of the same world with a blip attached to every player
// (SA-MP's player markers), each pass a slow pass (attached blips follow).
func BenchmarkPrimsKinds(b *testing.B) {
	kinds := []struct {
		name string
		step float32 // meters run between two passes
		run  func(w *World, p *Player)
		mark bool // on the world with player markers
	}{
		{"labels", 7, (*World).reconcileLabels, false},
		{"blips", 7, (*World).reconcileBlips, false},
		{"zones", ZoneRequery, (*World).reconcileZones, false},
		{"vehicles", EntityRequery, func(w *World, p *Player) { p.ent.vehicleAt.Invalidate(); w.streamVehicles(p) }, false},
		{"checkpoints", 7, (*World).reconcileCheckpoints, false},
		{"colshapes", 7, (*World).reconcileColshapes, false},
		{"markers", 7, func(w *World, p *Player) { w.prims.follow = true; w.reconcileBlips(p); w.prims.follow = false }, true},
	}
	for _, l := range layouts {
		var (
			w, wm   *World
			ms, mms []mover
			now     = t0.Add(time.Second)
		)
		for _, how := range []string{"shifted", "ran"} {
			for _, k := range kinds {
				b.Run(l.name+"/"+how+"/"+k.name, func(b *testing.B) {
					if w == nil {
						w, ms = entityWorld(b, 0, 0, 1000, l.hot)
					}
					w, ms := w, ms
					if k.mark {
						if wm == nil {
							wm, mms = entityWorld(b, 0, 0, 1000, l.hot)
							addMarkers(b, wm, mms)
						}
						w, ms = wm, mms
					}
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					var s wire.PlayerSync
					var shift float32 = 0.005
					move := func() {
						shift = -shift
						now = now.Add(tick)
						if how == "ran" { // the time the step takes at 7 m/s: a sync faster than MaxSpeed is refused
							now = now.Add(time.Duration(float64(k.step) / 7 * float64(time.Second)))
						}
						for i := range ms {
							m := &ms[i]
							x, y := m.pos.X+shift, m.pos.Y
							if how == "ran" {
								m.pos.X += m.dx / 0.35 * k.step
								m.pos.Y += m.dy / 0.35 * k.step
								if m.pos.X > 4000 || m.pos.X < -4000 {
									m.dx = -m.dx
								}
								if m.pos.Y > 4000 || m.pos.Y < -4000 {
									m.dy = -m.dy
								}
								x, y = m.pos.X, m.pos.Y
							}
							m.seq++
							s = wire.PlayerSync{Seq: m.seq, Landed: 1, State: 1, X: x, Y: y, Z: m.pos.Z, Health: 100}
							w.Packet(m.p, &s, now)
						}
					}
					// The views at the new points, and the box caches warm
					// (as BenchmarkFullPass's: until three passes build no box).
					warmCaches(w, func() {
						move()
						for i := range ms {
							k.run(w, ms[i].p)
						}
					})
					var cpu time.Duration
					steady0, holds0, steps0 := w.caches.steady, w.prims.holdsMade, w.prims.steps
					b.ReportAllocs()
					for b.Loop() {
						move()
						c := threadcpu.Spent()
						for i := range ms {
							k.run(w, ms[i].p)
						}
						cpu += threadcpu.Spent() - c
					}
					b.ReportMetric(float64(cpu)/1e6/float64(b.N), "cpu-ms/op")

					if n := w.prims.steps - steps0; n > 0 {
						b.ReportMetric(float64(n)/float64(b.N), "steps/op")
					}
					if n := w.prims.holdsMade - holds0; n > 0 {
						b.ReportMetric(float64(n)/float64(b.N), "holds-made/op")
					}
					for k, name := range cacheNames {
						if n := w.caches.steady[k] - steady0[k]; n > 0 {
							b.ReportMetric(float64(n)/float64(b.N), name+"-steady/op")
						}
					}
				})
			}
		}
	}
}

// addMarkers attaches a blip to every player of ms.
func addMarkers(tb testing.TB, w *World, ms []mover) {
	tb.Helper()
	for _, m := range ms {
		if _, err := w.CreateBlip(BlipParams{Color: 0xFF00FF, AttachKind: wire.AttachPlayer, AttachID: uint32(m.p.id)}); err != nil {
			tb.Fatal(err)
		}
	}
}
