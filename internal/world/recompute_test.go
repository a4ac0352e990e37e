package world

import (
	"math/rand/v2"
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
)

// A view the world leaves alone must be the view computed from scratch:
// after random changes and a tick, every player's views equal what a fresh
// view reconciled from the wanted sets would show. The players stand (at
// the point their views were computed at), so every difference is a change
// that did not reach a view it alters.

// sameView fails the test unless v shows exactly what a fresh view of the
// limit shows after reconciling wants, at the same revs.
func sameView(t *testing.T, what string, v *stream.View, limit int, wants []stream.Want) {
	t.Helper()
	fresh := stream.New(limit)
	ops := fresh.Reconcile(wants, stream.Unlimited, stream.HidesFirst, nil)
	if v.Len() != fresh.Len() {
		t.Fatalf("%s: shows %d, a recompute shows %d", what, v.Len(), fresh.Len())
	}
	for _, op := range ops {
		if rev, ok := v.Shown(op.ID); !ok || rev != op.Rev {
			t.Fatalf("%s: %d shown %v at rev %d, a recompute shows it at rev %d", what, op.ID, ok, rev, op.Rev)
		}
	}
}

func TestObjectViewsEqualRecompute(t *testing.T) {
	for seed := range uint64(6) {
		f := newFixture(t, nil)
		r := rand.New(rand.NewPCG(seed, 99))
		near := func(spread float32) grid.Vec {
			return at(float32(r.NormFloat64())*spread, float32(r.NormFloat64())*spread)
		}
		var ids []uint32
		for range 2500 { // dense enough that the 1000-object cut falls inside the stream distance
			ids = append(ids, f.object(ObjectParams{Pos: near(120), Distance: float32(50 + r.IntN(300))}))
		}
		var ps []*Player
		for i := range 8 {
			p, c := f.join()
			f.spawnAcked(p, c, at(float32(i*60), float32(i%3*40)))
			ps = append(ps, p)
		}
		f.advance(tick)
		for round := range 60 {
			for range 1 + r.IntN(6) {
				if len(ids) == 0 {
					break
				}
				id := ids[r.IntN(len(ids))]
				o := f.w.Object(id)
				var err error
				switch op := r.IntN(8); {
				case o == nil:
					continue
				case op == 0:
					ids = append(ids, f.object(ObjectParams{Pos: near(200), Distance: float32(30 + r.IntN(400))}))
				case op == 1:
					err = f.w.DeleteObject(id)
				case op == 2:
					err = f.w.SetObjectBroken(id, !o.Broken())
				case op == 3 && o.kind == 0 && len(o.children) == 0:
					err = f.w.AttachObject(id, AttachParams{Kind: KindObject, ID: ids[r.IntN(len(ids))], Offset: grid.Vec{Z: 1}})
				case op == 4 && o.kind != 0:
					err = f.w.DetachObject(id)
				case op == 5 && o.kind == 0 && len(o.children) == 0:
					err = f.w.AttachObject(id, AttachParams{Kind: KindPlayer, ID: uint32(ps[r.IntN(len(ps))].id), Offset: grid.Vec{Z: 1}})
				default:
					if o.kind == 0 {
						err = f.w.SetObjectPose(id, near(200), Rot{})
					}
				}
				_ = err // refusals (a cycle, a broken parent) are part of the game
			}
			f.advance(tick)
			for i, q := range ps {
				sc, c, _ := q.objectCenter()
				if q.objCut.at != c {
					t.Fatalf("seed %d round %d: player %d's view was computed at %v, it stands at %v", seed, round, i, q.objCut.at, c)
				}
				wants := f.w.objectWants(q, sc, c, nil)
				sameView(t, "objects", q.ent.objects, stream.Objects.Limit(), wants)
			}
			for _, p := range ps {
				p.conn.(*testConn).take()
				p.conn.(*testConn).ackAll()
			}
		}
	}
}
