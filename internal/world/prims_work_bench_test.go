package world

import (
	"testing"
	"time"

	"dlmp/internal/wire"
)

// BenchmarkPrimsWork: what the pickup steps and the blip ring steps of
// BenchmarkIncremental's tick do, counted rather than timed (the machine's
// load moves the times; the counts are the same on every run): on its world
// without the objects (they change no pickup or blip answer), per tick,
// the pickup steps and those of them that sent nothing, their ops, the blip
// ring steps, builds and those that changed nothing (decision 0394). One
// op is one tick.
func BenchmarkPrimsWork(b *testing.B) {
	for _, l := range layouts {
		b.Run(l.name, func(b *testing.B) {
			w, ms := entityWorld(b, 0, 100_000, 1000, l.hot)
			now := warmUp(w, ms, t0.Add(time.Second))
			pr := &w.prims
			stepped0, shelled0 := w.caches.stepped[cachePickups], w.caches.shelled[cachePickups]
			c0 := [...]uint64{pr.pickupSame, pr.pickupOps, pr.ringSteps, pr.ringBuilds, pr.ringSame}
			var s wire.PlayerSync
			b.ReportAllocs()
			for b.Loop() {
				now = now.Add(tick)
				step(w, ms, now, &s)
			}
			n := float64(b.N)
			per := func(v uint64) float64 { return float64(v) / n }
			b.ReportMetric(per(w.caches.stepped[cachePickups]-stepped0), "pickup-steps/tick")
			b.ReportMetric(per(w.caches.shelled[cachePickups]-shelled0), "pickup-shell-steps/tick")
			b.ReportMetric(per(pr.pickupSame-c0[0]), "pickup-steps-same/tick")
			b.ReportMetric(per(pr.pickupOps-c0[1]), "pickup-step-ops/tick")
			b.ReportMetric(per(pr.ringSteps-c0[2]), "ring-steps/tick")
			b.ReportMetric(per(pr.ringBuilds-c0[3]), "ring-builds/tick")
			b.ReportMetric(per(pr.ringSame-c0[4]), "ring-steps-same/tick")
		})
	}
}
