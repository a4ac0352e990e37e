package world

import (
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
)

// TestPickupStepsEqualRecompute: players walking among pickups that are
// created, moved and deleted; after every tick each player's pickup view
// equals a fresh view reconciled from a scan of every pickup at the point
// it was last computed at. The walks make the views due by distance, so
// they are told as steps (grid.DiffIn, shells, View.PatchStep): the test
// fails if no step was patched.
func TestPickupStepsEqualRecompute(t *testing.T) {
	var stepped uint64
	for seed := range uint64(4) {
		f, r, near := seeded(t, seed, 5)
		var ids []uint32
		for range 1500 {
			ids = append(ids, f.pickup(PickupParams{Model: 1240, Pos: near(150)}))
		}
		type walker struct {
			p   *Player
			c   *testConn
			pos grid.Vec
		}
		var ws []*walker
		for i := range 6 {
			p, c := f.join()
			pos := at(float32(i*40-120), float32(i%2*50))
			f.spawnAcked(p, c, pos)
			ws = append(ws, &walker{p: p, c: c, pos: pos})
		}
		f.advance(tick)
		for round := range 150 {
			for range r.IntN(4) {
				id := ids[r.IntN(len(ids))]
				if f.w.Pickup(id) == nil {
					continue
				}
				switch r.IntN(3) {
				case 0:
					ids = append(ids, f.pickup(PickupParams{Model: 1240, Pos: near(150)}))
				case 1:
					if err := f.w.DeletePickup(id); err != nil {
						t.Fatal(err)
					}
				default:
					if err := f.w.MovePickup(id, near(150)); err != nil {
						t.Fatal(err)
					}
				}
			}
			for _, m := range ws {
				m.pos = grid.Vec{X: m.pos.X + float32(r.IntN(17)-8), Y: m.pos.Y + float32(r.IntN(17)-8), Z: m.pos.Z}
				f.sync(m.p, m.c, m.pos, 1)
			}
			f.advance(tick)
			for i, m := range ws {
				q := m.p
				at := q.spots[cachePickups].step.at
				wants := brute(f.w, func() []stream.Want {
					pos := q.pos
					q.pos = at
					w, _ := f.w.pickupWants(q, nil, nil)
					q.pos = pos
					return w
				})
				fresh := stream.New(stream.Unlimited)
				ops := fresh.Reconcile(wants, stream.Unlimited, stream.HidesFirst, nil)
				if q.pickups.Len() != fresh.Len() {
					t.Fatalf("seed %d round %d player %d: shows %d pickups, a recompute shows %d", seed, round, i, q.pickups.Len(), fresh.Len())
				}
				for _, op := range ops {
					if rev, ok := q.pickups.Shown(op.ID); !ok || rev != op.Rev {
						t.Fatalf("seed %d round %d player %d: pickup %d shown %v at rev %d, a recompute shows it at rev %d", seed, round, i, op.ID, ok, rev, op.Rev)
					}
				}
			}
			for _, m := range ws {
				m.c.take()
				m.c.ackAll()
			}
		}
		stepped += f.w.caches.stepped[cachePickups]
	}
	if stepped == 0 {
		t.Fatal("no pickup step was patched")
	}
	t.Logf("%d pickup steps patched", stepped)
}
