package world

import (
	"math/rand/v2"
	"slices"
	"testing"

	"dlmp/internal/lane"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// BenchmarkSendObjectOps: the ops of one view's step in a world of
// 1,000,000 objects (130 shows of random objects and 130 hides, about a
// 16 m step of a uniform player), sent as sendObjectOps does (filled: the
// shows' objects found, then loaded, then every show filled, then all
// sent), as it did before decision 0359 (one-loop: each object found and
// loaded in one loop) and before decision 0234 (interleaved: each show
// filled just before its send). Per step.
func BenchmarkSendObjectOps(b *testing.B) {
	w, err := New(testConfig(), nil, t0)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	addObjects(b, w, rng, 1_000_000)
	var h wire.ServerHello
	q, _ := w.Join(&nullConn{}, &h)
	n := int(w.ents.nextObject)
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
				w.fillObject(w.ents.objects.at(op.ID), s)
			} else {
				*s = wire.ObjectState{ObjectID: op.ID}
			}
			w.send(q, s, lane.Critical)
		}
	}
	oneLoop := func(ops []stream.Op) { // sendObjectOps before decision 0359
		c := &w.caches
		objs := c.showObjs[:0]
		moving, ids := 0, uint32(0)
		for _, op := range ops {
			if op.Show {
				o := w.ents.objects.at(op.ID)
				if o.mv != nil {
					moving++
				}
				ids ^= o.id
				objs = append(objs, o)
			}
		}
		c.showMoving, c.showIDs = moving, ids
		shows := slices.Grow(c.shows2[:0], len(objs))[:len(objs)]
		for i, o := range objs {
			w.fillObject(o, &shows[i])
		}
		clear(objs)
		c.showObjs, c.shows2 = objs, shows
		s, n := &w.ents.os, 0
		for _, op := range ops {
			if op.Show {
				w.buf = shows[n].Append(w.buf[:0])
				n++
			} else {
				*s = wire.ObjectState{ObjectID: op.ID}
				w.buf = s.Append(w.buf[:0])
			}
			w.sendEncoded(q, w.buf, lane.Critical)
		}
	}
	for _, m := range []struct {
		name string
		send func([]stream.Op)
	}{{"filled", func(ops []stream.Op) { w.sendObjectOps(q, ops) }}, {"one-loop", oneLoop}, {"interleaved", interleaved}} {
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
