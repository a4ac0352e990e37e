package world

import (
	"math/rand/v2"
	"testing"

	"dlmp/internal/config"
	"dlmp/internal/lane"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// BenchmarkSendObjectOps: the ops of one view's step in a world of
// 1,000,000 objects (130 shows of random objects and 130 hides, about a
// 16 m step of a uniform player), sent as sendObjectOps does (filled: every
// show filled, then all sent) and as it did before (interleaved: each show
// filled just before its send). Per step.
func BenchmarkSendObjectOps(b *testing.B) {
	w, err := New(config.Default(), nil, t0)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	addObjects(b, w, rng, 1_000_000)
	var h wire.ServerHello
	q, _ := w.Join(&nullConn{}, &h)
	n := len(w.ents.objects) - 1
	const steps = 512
	opsOf := make([][]stream.Op, steps)
	for i := range opsOf {
		for range 130 {
			opsOf[i] = append(opsOf[i], stream.Op{ID: uint32(1 + rng.IntN(n)), Show: true})
			opsOf[i] = append(opsOf[i], stream.Op{ID: uint32(1 + rng.IntN(n))})
		}
	}
	interleaved := func(ops []stream.Op) {
		s := &w.ents.os
		for _, op := range ops {
			if op.Show {
				w.fillObject(w.ents.objects[op.ID], s)
			} else {
				*s = wire.ObjectState{ObjectID: op.ID}
			}
			w.send(q, s, lane.Critical)
		}
	}
	for _, m := range []struct {
		name string
		send func([]stream.Op)
	}{{"filled", func(ops []stream.Op) { w.sendObjectOps(q, ops) }}, {"interleaved", interleaved}} {
		b.Run(m.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				m.send(opsOf[i%steps])
				i++
			}
		})
	}
}
