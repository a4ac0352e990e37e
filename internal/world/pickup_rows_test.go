package world

import (
	"strconv"
	"testing"
	"time"
	"unsafe"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// checkRows fails unless every pickup of the world has a row whose show is
// the pickup's own, and the ids in dead have none.
func checkRows(t *testing.T, w *World, dead map[uint32]bool, when string) {
	t.Helper()
	tb := &w.prims.pkRows
	if tb.live != len(w.pickups) {
		t.Fatalf("%s: %d live rows, %d pickups", when, tb.live, len(w.pickups))
	}
	for id, pk := range w.pickups {
		r := tb.row(id)
		if r == nil {
			t.Fatalf("%s: pickup %d has no row", when, id)
		}
		var got wire.PickupSync
		r.fill(id, &got)
		if want := pk.show(); got != *want {
			t.Fatalf("%s: pickup %d's row shows %+v, want %+v", when, id, got, *want)
		}
	}
	for id := range dead {
		if tb.row(id) != nil {
			t.Fatalf("%s: deleted pickup %d still has a row", when, id)
		}
	}
}

// TestPickupRowsFollowPickups: pickups created, moved, collected (with and
// without a respawn), respawned and deleted at random; after every change
// each pickup's row shows what the pickup shows (Pickup.show), a deleted
// one has none. Then most of the oldest are deleted: the table drops their
// rows and keeps the others'.
func TestPickupRowsFollowPickups(t *testing.T) {
	f, r, near := seeded(t, 1, 9)
	dead := map[uint32]bool{}
	var ids []uint32
	for i := range 3000 {
		pp := PickupParams{Model: 1240, Pos: near(300), NoHighlight: i%3 == 0, Scale: float32(1 + i%4)}
		if i%2 == 0 {
			pp.Respawn = time.Second
		}
		ids = append(ids, f.pickup(pp))
	}
	checkRows(t, f.w, dead, "created")
	for round := range 400 {
		id := ids[r.IntN(len(ids))]
		if f.w.Pickup(id) == nil {
			continue
		}
		var err error
		switch r.IntN(4) {
		case 0:
			err = f.w.MovePickup(id, near(300))
		case 1:
			if f.w.Pickup(id).Active() {
				err = f.w.CollectPickup(id)
				if f.w.Pickup(id) == nil {
					dead[id] = true
				}
			}
		case 2:
			err = f.w.DeletePickup(id)
			dead[id] = true
		default:
			ids = append(ids, f.pickup(PickupParams{Model: 1242, Pos: near(300)}))
		}
		if err != nil {
			t.Fatal(err)
		}
		f.advance(300 * time.Millisecond) // respawns
		checkRows(t, f.w, dead, "round "+strconv.Itoa(round))
	}
	for _, id := range ids[:2500] {
		if f.w.Pickup(id) != nil {
			if err := f.w.DeletePickup(id); err != nil {
				t.Fatal(err)
			}
			dead[id] = true
		}
	}
	checkRows(t, f.w, dead, "the oldest deleted")
	tb := &f.w.prims.pkRows
	if got, limit := len(tb.rows), 2*len(f.w.pickups)+1024; got > limit {
		t.Fatalf("%d rows for %d pickups, want at most %d", got, len(f.w.pickups), limit)
	}
	if unsafe.Sizeof(pickupRow{}) != 32 {
		t.Fatalf("a row is %d bytes, want 32 (two to a cache line)", unsafe.Sizeof(pickupRow{}))
	}
}

// TestPickupStepShowsFromRows: a player walks among pickups that move; every
// show they receive (steps and lists, both sent by sendPickupOps from the
// rows) equals the pickup's show at that moment.
func TestPickupStepShowsFromRows(t *testing.T) {
	f, r, near := seeded(t, 2, 9)
	var ids []uint32
	for range 800 {
		ids = append(ids, f.pickup(PickupParams{Model: 1240, Pos: near(150)}))
	}
	p, c := f.join()
	pos := at(-100, 0)
	f.spawnAcked(p, c, pos)
	shows := 0
	for range 200 {
		for range 3 {
			if err := f.w.MovePickup(ids[r.IntN(len(ids))], near(150)); err != nil {
				t.Fatal(err)
			}
		}
		pos = grid.Vec{X: pos.X + float32(r.IntN(9)-3), Y: pos.Y + float32(r.IntN(9)-4), Z: pos.Z}
		f.sync(p, c, pos, 1)
		f.advance(tick)
		for _, s := range only[*wire.PickupSync](c.take()) {
			if s.Active == 0 {
				continue
			}
			shows++
			if want := f.w.Pickup(s.PickupID).show(); *s != *want {
				t.Fatalf("got show %+v, want %+v", *s, *want)
			}
		}
		c.ackAll()
	}
	if shows < 100 || f.w.caches.stepped[cachePickups] == 0 {
		t.Fatalf("%d shows, %d steps: the walk does not test the steps' shows", shows, f.w.caches.stepped[cachePickups])
	}
}
