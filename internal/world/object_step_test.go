package world

import (
	"math"
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
)

// TestObjectStepsEqualRecompute: players walking through a dense world
// (the 1000-object cut in effect near its center, not at its edges) while
// objects are created, deleted, moved, broken, attached and detached; after
// every tick each player's object view equals a fresh view reconciled from
// a scan of every object at the point it was last computed at. The walks
// make most views due by distance, so they are told as steps (grid.DiffIn,
// shells, View.Patch): the test fails if no step was patched, or if the
// shells told none.
func TestObjectStepsEqualRecompute(t *testing.T) {
	var stepped, shellSteps, held uint64
	for seed := range uint64(4) {
		f, r, near := seeded(t, seed, 31)
		var ids []uint32
		for range 2500 {
			ids = append(ids, f.object(ObjectParams{Pos: near(150), Distance: float32(50 + r.IntN(250))}))
		}
		type walker struct {
			p   *Player
			c   *testConn
			pos grid.Vec
			dir grid.Vec
		}
		var ws []*walker
		for i := range 8 {
			p, c := f.join()
			pos := at(float32(i*70-250), float32(i%3*60-60))
			f.spawnAcked(p, c, pos)
			a := r.Float64() * 6.28
			ws = append(ws, &walker{p: p, c: c, pos: pos, dir: grid.Vec{X: float32(math.Cos(a)), Y: float32(math.Sin(a))}})
		}
		f.advance(tick)
		for round := range 150 {
			for range r.IntN(4) {
				id := ids[r.IntN(len(ids))]
				o := f.w.Object(id)
				switch op := r.IntN(7); {
				case o == nil:
				case op == 0:
					ids = append(ids, f.object(ObjectParams{Pos: near(200), Distance: float32(30 + r.IntN(300))}))
				case op == 1:
					_ = f.w.DeleteObject(id)
				case op == 2 && o.kind == 0 && len(o.children) == 0:
					_ = f.w.AttachObject(id, AttachParams{Kind: KindObject, ID: ids[r.IntN(len(ids))], Offset: grid.Vec{Z: 1}})
				case op == 3 && o.kind != 0:
					_ = f.w.DetachObject(id)
				case op == 4 && o.kind == 0 && len(o.children) == 0 && r.IntN(8) == 0:
					_ = f.w.AttachObject(id, AttachParams{Kind: KindPlayer, ID: uint32(ws[r.IntN(len(ws))].p.id), Offset: grid.Vec{Z: 1}})
				default:
					if o.kind == 0 {
						_ = f.w.SetObjectPose(id, near(200), Rot{})
					}
				}
			}
			for _, m := range ws {
				if r.IntN(20) == 0 { // turn
					a := r.Float64() * 6.28
					m.dir = grid.Vec{X: float32(math.Cos(a)), Y: float32(math.Sin(a))}
				}
				if m.pos.X*m.dir.X+m.pos.Y*m.dir.Y > 0 && m.pos.X*m.pos.X+m.pos.Y*m.pos.Y > 350*350 {
					m.dir = grid.Vec{X: -m.dir.X, Y: -m.dir.Y} // back toward the center
				}
				d := float32(2 + r.IntN(8))
				m.pos = grid.Vec{X: m.pos.X + d*m.dir.X, Y: m.pos.Y + d*m.dir.Y, Z: m.pos.Z}
				f.sync(m.p, m.c, m.pos, 1)
			}
			st0 := f.w.caches.stepped[cacheObjects]
			f.advance(tick)
			if f.w.caches.stepped[cacheObjects] > st0 && f.w.caches.step.Shell {
				shellSteps++
			}
			for i, m := range ws {
				q := m.p
				sc, c := q.objCut.scope, q.objCut.at
				wants := brute(f.w, func() []stream.Want { w, _ := f.w.objectWants(q, sc, c, nil, nil); return w })
				if t.Failed() {
					return
				}
				sameViewOf(t, seed, round, i, q.ent.objects, wants)
			}
			for _, m := range ws {
				m.c.take()
				m.c.ackAll()
			}
		}
		stepped += f.w.caches.stepped[cacheObjects]
		held += f.w.caches.held[cacheObjects]
	}
	if stepped == 0 || shellSteps == 0 || held == 0 {
		t.Fatalf("%d object steps patched (%d ticks with a shell's step, %d steps from a held answer): the steps were not taken", stepped, shellSteps, held)
	}
	t.Logf("%d object steps patched, %d ticks ended with a shell's step, %d steps from a held answer", stepped, shellSteps, held)
}

func sameViewOf(t *testing.T, seed uint64, round, i int, v *stream.View, wants []stream.Want) {
	t.Helper()
	fresh := stream.New(stream.Objects.Limit())
	ops := fresh.Reconcile(wants, stream.Unlimited, stream.HidesFirst, nil)
	if v.Len() != fresh.Len() {
		t.Fatalf("seed %d round %d player %d: shows %d objects, a recompute shows %d", seed, round, i, v.Len(), fresh.Len())
	}
	for _, op := range ops {
		if rev, ok := v.Shown(op.ID); !ok || rev != op.Rev {
			t.Fatalf("seed %d round %d player %d: %d shown %v at rev %d, a recompute shows it at rev %d", seed, round, i, op.ID, ok, rev, op.Rev)
		}
	}
}

// reportSteps reports the views told as steps per unit of work, by kind:
// patched, told by a shell's band, refused (listed).
func reportSteps(b *testing.B, before, after [cacheKinds]CacheStats, per float64, unit string) {
	for k, name := range cacheNames {
		a, s := after[k], before[k]
		if n := a.Stepped - s.Stepped + a.Refused - s.Refused; n > 0 {
			b.ReportMetric(float64(a.Stepped-s.Stepped)/per, name+"-steps/"+unit)
			b.ReportMetric(float64(a.Shelled-s.Shelled)/per, name+"-shell-steps/"+unit)
			if a.Held > s.Held {
				b.ReportMetric(float64(a.Held-s.Held)/per, name+"-held-steps/"+unit)
				b.ReportMetric(float64(a.Widened-s.Widened)/per, name+"-widened/"+unit)
			}
			b.ReportMetric(float64(a.Refused-s.Refused)/per, name+"-refused/"+unit)
		}
		if n := a.Banded - s.Banded + a.BandRefused - s.BandRefused; n > 0 {
			b.ReportMetric(float64(a.Banded-s.Banded)/per, name+"-band-steps/"+unit)
			b.ReportMetric(float64(a.BandRefused-s.BandRefused)/per, name+"-band-refused/"+unit)
		}
	}
}
