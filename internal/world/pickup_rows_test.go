package world

import (
	"errors"
	"math"
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
	if n := liveRows(t, tb); n != len(w.pickups) {
		t.Fatalf("%s: %d live rows, %d pickups", when, n, len(w.pickups))
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
	if got, limit := pagesHeld(tb), len(f.w.pickups)/rowPageLen+2; got > limit {
		t.Fatalf("%d pages for %d pickups, want at most %d", got, len(f.w.pickups), limit)
	}
	if unsafe.Sizeof(pickupRow{}) != 32 {
		t.Fatalf("a row is %d bytes, want 32 (two to a cache line)", unsafe.Sizeof(pickupRow{}))
	}
}

// TestPickupRowsChurn: a gamemode keeps 100 pickups for good and creates
// and deletes others without end (money drops): the table keeps the pages
// of live pickups only, and a pointer per page of ids given; emptied, it
// holds nothing, and pickups created after are found again.
func TestPickupRowsChurn(t *testing.T) {
	f, _, near := seeded(t, 2, 9)
	for range 100 {
		f.pickup(PickupParams{Model: 1240, Pos: near(300)})
	}
	tb := &f.w.prims.pkRows
	var last uint32
	for range 20_000 {
		last = f.pickup(PickupParams{Model: 1212, Pos: near(300)})
		if err := f.w.DeletePickup(last); err != nil {
			t.Fatal(err)
		}
	}
	if got := pagesHeld(tb); got > 2 {
		t.Fatalf("%d pages held for 100 live pickups after 20,000 deleted, want at most 2", got)
	}
	if got, limit := len(tb.pages), int(last/rowPageLen)+1; got > limit {
		t.Fatalf("%d page pointers after %d ids, want at most %d", got, last, limit)
	}
	checkRows(t, f.w, nil, "after the churn")
	dead := map[uint32]bool{}
	for id := range f.w.pickups { // one by one to the last: its page stays
		if err := f.w.DeletePickup(id); err != nil {
			t.Fatal(err)
		}
		dead[id] = true
		checkRows(t, f.w, dead, "deleting the kept ones")
	}
	if n := liveRows(t, tb); len(tb.pages) != 0 || n != 0 {
		t.Fatalf("emptied: %d page pointers, %d live rows; want 0, 0", len(tb.pages), n)
	}
	id := f.pickup(PickupParams{Model: 1240, Pos: near(300)})
	checkRows(t, f.w, map[uint32]bool{last: true}, "created after emptied")
	if tb.row(id) == nil {
		t.Fatal("a pickup created after the table emptied has no row")
	}
}

// liveRows counts the live rows of tb, row by row, and fails unless each
// page's count of its live rows is that count.
func liveRows(t *testing.T, tb *pickupRows) int {
	t.Helper()
	n := 0
	for pi, pg := range tb.pages {
		if pg == nil {
			continue
		}
		k := 0
		for i := range pg.rows {
			if pg.rows[i].live {
				k++
			}
		}
		if k != pg.live {
			t.Fatalf("page %d: %d live rows, its count says %d", pi, k, pg.live)
		}
		n += k
	}
	return n
}

// pagesHeld is how many pages t holds.
func pagesHeld(t *pickupRows) int {
	k := 0
	for _, pg := range t.pages {
		if pg != nil {
			k++
		}
	}
	return k
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

// After the last pickup id is given, CreatePickup refuses with an error
// naming the rule, and the world and its rows are as before.
func TestPickupIDsRunOut(t *testing.T) {
	f, _, near := seeded(t, 3, 9)
	f.w.nextPickup = math.MaxUint32 - 1
	last := f.pickup(PickupParams{Model: 1240, Pos: near(300)})
	if last != math.MaxUint32 {
		t.Fatalf("the last pickup's id is %d, want %d", last, uint32(math.MaxUint32))
	}
	_, err := f.w.CreatePickup(PickupParams{Model: 1240, Pos: near(300)})
	var ae *ArgError
	if !errors.As(err, &ae) || ae.Func != "create_pickup" || ae.Arg != "id" {
		t.Fatalf("CreatePickup past the last id: %v, want an ArgError of create_pickup's id", err)
	}
	if len(f.w.pickups) != 1 {
		t.Fatalf("%d pickups, want 1", len(f.w.pickups))
	}
	checkRows(t, f.w, nil, "ids run out")
}
