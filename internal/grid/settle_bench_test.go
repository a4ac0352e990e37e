package grid

import (
	"math/rand/v2"
	"runtime"
	"testing"
)

// BenchmarkCompact measures one Compact of a million objects over 8 km
// (64 m cells), the pause of a grid that settles at that size, beside
// the load of those million one Insert at a time (which includes the
// Compacts settle did on the way), per entity.
func BenchmarkCompact(b *testing.B) {
	ps, _, _ := benchWorld(1_000_000, 8000, func(*rand.Rand) float32 { return 300 })
	b.Run("compact", func(b *testing.B) {
		g := New(64)
		for i, p := range ps {
			g.Insert(uint32(i), p, 300)
		}
		runtime.GC()
		b.ReportAllocs()
		for b.Loop() {
			g.Compact()
		}
	})
	b.Run("load", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			g := New(64)
			for i, p := range ps {
				g.Insert(uint32(i), p, 300)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ps)), "ns/insert")
	})
}
