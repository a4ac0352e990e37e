package world

import (
	"testing"

	"dlmp/internal/stream"
)

// BenchmarkLabelShows is a label pass's shows sent (sendLabelOps): the
// name labels of 160 of the crossing's players (at the packs' first
// crossing) shown to one viewer, each a Label3D of 291 bytes encoded at its
// rev (decision 0295), copied into the client's queue as the lane does.
// -cold sweeps the caches before each op, as a tick finds them in the load
// run: each show then reads its label from memory (the map's entry, the
// label, its bytes). Decision 0397 compares it across commits (the
// label's bytes in its struct, or behind a pointer in it).
func BenchmarkLabelShows(b *testing.B) {
	c := crossingMet(b)
	q := c.ms[0].p
	var ops []stream.Op
	for _, m := range c.ms[1:161] {
		d := &c.w.ents.views.labels
		s := c.w.ref(m.p.id).label - 1
		if s < 0 {
			b.Fatalf("player %d has no only label", m.p.id)
		}
		ops = append(ops, stream.Op{ID: d.refs[s].id, Rev: d.refs[s].rev, Show: true})
	}
	for _, cold := range []bool{false, true} {
		name := "warm"
		if cold {
			name = "cold"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			k := c.conns[0]
			for b.Loop() {
				if cold {
					b.StopTimer()
					c.sweepCaches()
					b.StartTimer()
				}
				c.w.prims.ops = append(c.w.prims.ops[:0], ops...)
				c.w.sendLabelOps(q, true)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ops)), "ns/show")
			if k.label == 0 {
				b.Fatal("no label sent")
			}
		})
	}
}
