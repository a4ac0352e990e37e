package world

import (
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
)

// TestObjectBandStepsEqualRecompute: players standing with a jitter of a
// few centimeters (an idle client), their object views computed every tick
// from the box caches, while objects are created, moved, attached and
// deleted around them; after every tick each view equals a fresh view
// reconciled from a scan of every object at the point it was computed at.
// The views whose answer changed only in their box's band are patched from
// the band (objectBandStep): the test fails if none was.
func TestObjectBandStepsEqualRecompute(t *testing.T) {
	var patched uint64
	for seed := range uint64(4) {
		f, r, near := seeded(t, seed, 17)
		var ids []uint32
		for range 2000 {
			ids = append(ids, f.object(ObjectParams{Pos: near(150), Distance: float32(20 + r.IntN(200))}))
		}
		for _, id := range ids[:600] { // chains: roots whose members must go and come with them
			_ = f.w.AttachObject(id, AttachParams{Kind: KindObject, ID: ids[600+r.IntN(len(ids)-600)], Offset: grid.Vec{Z: 1}})
		}
		type idler struct {
			p   *Player
			c   *testConn
			pos grid.Vec
		}
		var ps []*idler
		for i := range 8 {
			p, c := f.join()
			pos := at(float32(i*50-200), float32(i%3*40-40))
			f.spawnAcked(p, c, pos)
			ps = append(ps, &idler{p: p, c: c, pos: pos})
		}
		f.advance(tick)
		for round := range 200 {
			for range r.IntN(3) {
				id := ids[r.IntN(len(ids))]
				o := f.w.Object(id)
				switch op := r.IntN(6); {
				case o == nil:
				case op == 0:
					ids = append(ids, f.object(ObjectParams{Pos: near(150), Distance: float32(20 + r.IntN(200))}))
				case op == 1:
					_ = f.w.DeleteObject(id)
				case op == 2 && o.kind == 0 && len(o.children) == 0:
					_ = f.w.AttachObject(id, AttachParams{Kind: KindObject, ID: ids[r.IntN(len(ids))], Offset: grid.Vec{Z: 1}})
				case op == 3 && o.kind != 0:
					_ = f.w.DetachObject(id)
				case op == 4: // a new rev in place: sent again, not hidden
					pos, rot := f.w.currentPose(o)
					rot.Z += 10
					_ = f.w.SetObjectPose(id, pos, rot)
				default:
					if o.kind == 0 {
						_ = f.w.SetObjectPose(id, near(150), Rot{})
					}
				}
			}
			for _, m := range ps {
				// Around the spawn point by up to 1 m: a walk in its band.
				m.pos = grid.Vec{X: m.pos.X + float32(r.IntN(21)-10)/20, Y: m.pos.Y + float32(r.IntN(21)-10)/20, Z: m.pos.Z}
				f.sync(m.p, m.c, m.pos, 1)
				m.p.ent.objectAt.Invalidate()
			}
			f.advance(tick)
			for i, m := range ps {
				q := m.p
				sc, c := q.objCut.scope, q.objCut.at
				wants := brute(f.w, func() []stream.Want { w, _ := f.w.objectWants(q, sc, c, nil, nil); return w })
				sameViewOf(t, seed, round, i, q.ent.objects, wants)
			}
			for _, m := range ps {
				m.c.take()
				m.c.ackAll()
			}
		}
		patched += f.w.caches.bandSteps
	}
	if patched == 0 {
		t.Fatal("no object view was patched from its box's band")
	}
	t.Logf("%d object views patched from their band", patched)
}
