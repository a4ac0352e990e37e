package world

import (
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// TestEntityEdit: an edit is applied only inside a session that covers the
// entity, for an entity shown to the editor, at the current rev, and when
// the gamemode takes it; otherwise the editor gets a critical correction
// with the current show.
func TestEntityEdit(t *testing.T) {
	f := newFixture(t, nil)
	a, ca := f.join()
	b, cb := f.join()
	f.spawn(a, ca, grid.Vec{X: 0, Y: 0, Z: 3})
	f.spawn(b, cb, grid.Vec{X: 5, Y: 0, Z: 3})
	id, err := f.w.CreatePickup(PickupParams{Model: 1240, Pos: grid.Vec{X: 10, Y: 0, Z: 3}})
	if err != nil {
		t.Fatal(err)
	}
	f.advance(50 * time.Millisecond)
	ca.take()
	cb.take()
	rev := f.w.Pickup(id).Rev()
	edit := func(r uint32, x float32) {
		f.w.Packet(a, &wire.EntityEdit{Token: 1, EventID: 1, Kind: wire.EditPickup, EntityID: id, Rev: r, AX: x, AY: 0, AZ: 3}, f.now)
	}
	correction := func(what string) {
		t.Helper()
		out := ca.take()
		ps := only[*wire.PickupSync](out)
		if len(ps) != 1 || out[0].class != lane.Critical || ps[0].PickupID != id || ps[0].X != 10 || ps[0].Rev != f.w.Pickup(id).Rev() {
			t.Fatalf("%s: got %+v, want one critical PickupSync at x 10, rev %d", what, out, f.w.Pickup(id).Rev())
		}
		if got := f.w.Pickup(id).Position(); got.X != 10 {
			t.Fatalf("%s: the pickup moved to %v", what, got)
		}
	}

	edit(rev, 20) // no session
	correction("no edit session")
	if err := f.w.SetEditSession(a, EditSession{Kinds: wire.EditPickups}); err != nil {
		t.Fatal(err)
	}
	if es := only[*wire.EditState](ca.take()); len(es) != 1 || es[0].Active != 1 || es[0].Kinds != wire.EditPickups {
		t.Fatalf("EditState %+v", es)
	}
	edit(rev+7, 20) // stale rev
	correction("stale rev")
	edit(rev, 20) // the gamemode refuses (the default)
	correction("declined")
	if len(f.gm.edits) != 1 || f.gm.edits[0].A.X != 20 {
		t.Fatalf("edit events %+v, want the one that reached the gamemode", f.gm.edits)
	}
	f.gm.acceptEdit = func(Edit) bool { return true }
	edit(rev, 20)
	if got := f.w.Pickup(id); got.Position().X != 20 || got.Rev() <= rev {
		t.Fatalf("accepted edit: pickup at %v rev %d, want x 20 and a new rev", got.Position(), got.Rev())
	}
	for name, c := range map[string]*testConn{"editor": ca, "other viewer": cb} {
		ps := only[*wire.PickupSync](c.take())
		if len(ps) != 1 || ps[0].X != 20 || ps[0].Rev != f.w.Pickup(id).Rev() {
			t.Fatalf("%s got %+v, want the new show", name, ps)
		}
	}
	// A session on one other entity does not cover this one.
	f.w.SetEditSession(a, EditSession{Kinds: wire.EditPickups, EntityID: id + 100})
	ca.take()
	edit(f.w.Pickup(id).Rev(), 30)
	if out := only[*wire.PickupSync](ca.take()); len(out) != 1 || out[0].X != 20 {
		t.Fatalf("edit outside the session's entity: %+v, want a correction at x 20", out)
	}
	// An entity not shown to the editor: refused with nothing to correct.
	far, err := f.w.CreatePickup(PickupParams{Model: 1240, Pos: grid.Vec{X: 3000, Y: 0, Z: 3}})
	if err != nil {
		t.Fatal(err)
	}
	f.w.SetEditSession(a, EditSession{Kinds: wire.EditPickups})
	ca.take()
	f.w.Packet(a, &wire.EntityEdit{Token: 1, EventID: 1, Kind: wire.EditPickup, EntityID: far, Rev: f.w.Pickup(far).Rev(), AX: 3001, AZ: 3}, f.now)
	if out := ca.take(); len(out) != 0 || f.w.Pickup(far).Position().X != 3000 {
		t.Fatalf("edit of an unshown pickup: sent %+v", out)
	}
	// Closing the session.
	if err := f.w.SetEditSession(a, EditSession{}); err != nil {
		t.Fatal(err)
	}
	if es := only[*wire.EditState](ca.take()); len(es) != 1 || es[0].Active != 0 {
		t.Fatalf("closing: %+v", es)
	}
	if st := f.w.Stats(); st.EditsAccepted != 1 || st.EditsRefused != 5 {
		t.Fatalf("stats accepted %d refused %d, want 1 and 5", st.EditsAccepted, st.EditsRefused)
	}
}
