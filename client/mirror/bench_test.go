package mirror

import (
	"testing"
	"time"

	"dlmp/internal/wire"
)

const benchObjects = 1000

// benchShows returns 1000 object shows spread over a square, each moving
// for an hour when move is set.
func benchShows(move bool) []*wire.ObjectState {
	shows := make([]*wire.ObjectState, benchObjects)
	for i := range shows {
		pos := Vec3{float64(i%32) * 10, float64(i/32) * 10, 5}
		if move {
			shows[i] = moving(uint32(i+1), pos, Vec3{}, pos.Add(Vec3{100, 0, 0}), Vec3{0, 0, 360}, wire.MaxObjectMoveMS)
		} else {
			shows[i] = standing(uint32(i+1), pos, Vec3{0, 0, float64(i)})
		}
	}
	return shows
}

// BenchmarkApplyObjectShows applies 1000 ObjectState shows per iteration:
// into a new mirror, and again into a mirror that holds them (replaces),
// beside the baseline of decoding the same 1000 packets (Parse +
// CheckRecv), which every show pays before it reaches the mirror.
func BenchmarkApplyObjectShows(b *testing.B) {
	shows := benchShows(false)
	hello := frozenHello()
	b.Run("decode", func(b *testing.B) {
		var bufs [][]byte
		for _, p := range shows {
			bufs = append(bufs, p.Append(nil))
		}
		var p wire.ObjectState
		b.ReportAllocs()
		for b.Loop() {
			for _, buf := range bufs {
				if _, err := p.Parse(buf); err != nil {
					b.Fatal(err)
				}
				if err := p.CheckRecv(); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("new", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m := New(hello, t0)
			for _, p := range shows {
				m.Apply(p, t0)
			}
		}
	})
	b.Run("replace", func(b *testing.B) {
		m := New(hello, t0)
		for _, p := range shows {
			m.Apply(p, t0)
		}
		b.ReportAllocs()
		for b.Loop() {
			for _, p := range shows {
				m.Apply(p, t0)
			}
		}
	})
}

// BenchmarkAdvance runs Advance by 100 µs per iteration over 1000 objects:
// all moving, beside the baseline of 1000 standing ones (what Advance costs
// when nothing moves) and the cost of reading the 1000 moving objects'
// world poses once.
func BenchmarkAdvance(b *testing.B) {
	for _, c := range []struct {
		name string
		move bool
	}{{"standing", false}, {"moving", true}} {
		b.Run(c.name, func(b *testing.B) {
			m := New(frozenHello(), t0)
			for _, p := range benchShows(c.move) {
				m.Apply(p, t0)
			}
			now := t0
			b.ReportAllocs()
			for b.Loop() {
				now = now.Add(100 * time.Microsecond)
				m.Advance(now)
			}
			if c.move && m.MovingObjects() != benchObjects {
				b.Fatalf("%d objects moving, want %d", m.MovingObjects(), benchObjects)
			}
		})
	}
	b.Run("poses", func(b *testing.B) {
		m := New(frozenHello(), t0)
		for _, p := range benchShows(true) {
			m.Apply(p, t0)
		}
		b.ReportAllocs()
		for b.Loop() {
			for id := uint32(1); id <= benchObjects; id++ {
				if _, ok := m.ObjectPose(id); !ok {
					b.Fatal("no pose")
				}
			}
		}
	})
}
