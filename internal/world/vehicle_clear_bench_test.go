package world

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"dlmp/internal/config"
	"dlmp/internal/wire"
)

// BenchmarkVehicleViews: the vehicle views of 1000 players running at
// 7 m/s among 1000 parked vehicles on 8 km × 8 km (issue 4's load without
// objects, pickups or primitives), side by side: "steps", every due view
// told by a step (before decision 0411), and "edge-lists", a due view in
// its list's ball found steady unless a listed vehicle crossed R. A tick
// is the players' syncs, the vehicle passes (timed, thread CPU) and the
// rest of the tick; -benchtime 1500x.
func BenchmarkVehicleViews(b *testing.B) {
	for _, mode := range []struct {
		name string
		off  bool
	}{{"steps", true}, {"edge-lists", false}} {
		b.Run(mode.name, func(b *testing.B) {
			w, err := New(config.Default(), nil, t0)
			if err != nil {
				b.Fatal(err)
			}
			w.prims.vehEdgeOff = mode.off
			rng := rand.New(rand.NewPCG(7, 8))
			for range 1000 {
				if _, err := w.CreateVehicle(VehicleParams{Model: 411, Pos: uniform(rng)}); err != nil {
					b.Fatal(err)
				}
			}
			ms := addPlayers(b, w, rng, 1000, false)
			now := warmUp(w, ms, t0.Add(time.Second))
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var s wire.PlayerSync
			var m cpuMeter
			steps, steady, lists := w.prims.vehicleSteps, w.prims.vehicleClear, w.prims.vehicleClears
			b.ReportAllocs()
			for b.Loop() {
				now = now.Add(tick)
				for i := range ms { // step's syncs, without its Tick
					mv := &ms[i]
					mv.pos.X += mv.dx
					mv.pos.Y += mv.dy
					if mv.pos.X > 4000 || mv.pos.X < -4000 {
						mv.dx = -mv.dx
					}
					if mv.pos.Y > 4000 || mv.pos.Y < -4000 {
						mv.dy = -mv.dy
					}
					mv.seq++
					s = wire.PlayerSync{Seq: mv.seq, Landed: 1, State: 1, X: mv.pos.X, Y: mv.pos.Y, Z: mv.pos.Z, Health: 100}
					w.Packet(mv.p, &s, now)
				}
				m.run(func() {
					for _, p := range w.players {
						if p != nil {
							w.streamVehicles(p)
						}
					}
				})
				w.Tick(now)
			}
			m.report(b, 1)
			n := float64(b.N)
			b.ReportMetric(float64(w.prims.vehicleSteps-steps)/n, "vehicle-steps/tick")
			b.ReportMetric(float64(w.prims.vehicleClear-steady)/n, "edge-steady/tick")
			b.ReportMetric(float64(w.prims.vehicleClears-lists)/n, "edge-lists/tick")
		})
	}
}
