package world

import (
	"testing"
	"time"

	"dlmp/internal/config"
	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// TestObjectTableByID: every object is found by its id across chunks, a
// refused create takes no slot, a deleted id is nil while a pointer held
// to it still reads what it was, and a chunk whose objects are all
// deleted is dropped only once no later id can fall in it.
func TestObjectTableByID(t *testing.T) {
	f := newFixture(t, nil)
	n := 2*objectChunk + 10
	for i := range n {
		id := f.object(ObjectParams{Pos: at(float32(i%100), float32(i/100)), Model: uint16(1337 + i%3)})
		if id != uint32(i+1) {
			t.Fatalf("got id %d, want %d", id, i+1)
		}
		if _, err := f.w.CreateObject(ObjectParams{Model: 1}); err == nil { // not an object model
			t.Fatal("create of model 1 accepted")
		}
	}
	for id := uint32(1); id <= uint32(n); id++ {
		o := f.w.Object(id)
		i := int(id - 1)
		if o == nil || o.ID() != id || o.Model() != uint16(1337+i%3) || o.pos != at(float32(i%100), float32(i/100)) {
			t.Fatalf("object %d: got %+v", id, o)
		}
	}
	if f.w.Object(0) != nil || f.w.Object(uint32(n+1)) != nil || f.w.Object(1<<31) != nil {
		t.Fatal("an id never made found")
	}

	// Delete every object of chunk 1 and one of chunk 0.
	held := f.w.Object(objectChunk)
	for id := uint32(objectChunk); id < 2*objectChunk; id++ {
		if err := f.w.DeleteObject(id); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.w.DeleteObject(7); err != nil {
		t.Fatal(err)
	}
	if got, want := f.w.Objects(), n-objectChunk-1; got != want {
		t.Fatalf("got %d objects, want %d", got, want)
	}
	if f.w.Object(7) != nil || f.w.Object(objectChunk) != nil || f.w.Object(2*objectChunk-1) != nil {
		t.Fatal("a deleted id found")
	}
	if held.ID() != objectChunk || held.Model() != uint16(1337+(objectChunk-1)%3) {
		t.Fatalf("a held pointer to a deleted object reads %+v", held)
	}
	tab := &f.w.ents.objects
	if tab.chunks[1].objs != nil || tab.chunks[0].objs == nil || tab.chunks[0].live != objectChunk-2 {
		t.Fatalf("chunks: [1] %d objects (want dropped), [0] %d with %d live (want kept, %d)", len(tab.chunks[1].objs), len(tab.chunks[0].objs), tab.chunks[0].live, objectChunk-2)
	}
	if err := f.w.DeleteObject(objectChunk + 1); err == nil {
		t.Fatal("delete of a deleted object accepted")
	}

	// The last chunk emptied while ids still fall in it: kept, and filled on.
	for id := uint32(2 * objectChunk); id <= uint32(n); id++ {
		if err := f.w.DeleteObject(id); err != nil {
			t.Fatal(err)
		}
	}
	if tab.chunks[2].objs == nil {
		t.Fatal("the last chunk dropped while later ids fall in it")
	}
	id := f.object(ObjectParams{Pos: at(1, 2)})
	if o := f.w.Object(id); id != uint32(n+1) || o == nil || o.pos != at(1, 2) {
		t.Fatalf("after the deletes: got id %d, object %+v", id, o)
	}
}

// TestObjectShowsReadTheTable: the shows a view sends read the object as
// it is now in the table, after a pose, a break, a delete of its chunk's
// neighbours and a create in a chunk that was dropped before it.
func TestObjectShowsReadTheTable(t *testing.T) {
	f := newFixture(t, func(c *config.Config) { c.World.ObjectStreamDistance = 100 })
	p, c := f.join()
	f.spawn(p, c, at(0, 0))
	far := make([]uint32, objectChunk+4) // ids 1..: far away, then deleted
	for i := range far {
		far[i] = f.object(ObjectParams{Pos: at(2000, 2000)})
	}
	near := f.object(ObjectParams{Pos: at(10, 0), Model: 1225}) // breaks
	f.advance(tick)
	if shows, _ := objectOps(t, c.take()); len(shows) != 1 || shows[0].ObjectID != near || shows[0].X != 10 {
		t.Fatalf("got shows %v, want [%d] at x 10", showIDs(shows), near)
	}
	for _, id := range far {
		if err := f.w.DeleteObject(id); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.w.SetObjectPose(near, at(20, 5), Rot{Z: 90}); err != nil {
		t.Fatal(err)
	}
	if err := f.w.SetObjectBroken(near, true); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	shows, _ := objectOps(t, c.take())
	if len(shows) != 1 || shows[0].X != 20 || shows[0].Y != 5 || shows[0].RZ != 90 || shows[0].Broken != 1 {
		t.Fatalf("after pose and break: got %d shows, first %+v", len(shows), shows)
	}
	// Walk away (a hide), then back: the show is read from the table again.
	f.walk(p, c, at(500, 0))
	f.advance(tick)
	if _, hides := objectOps(t, c.take()); len(hides) != 1 || hides[0] != near {
		t.Fatalf("got hides %v, want [%d]", hides, near)
	}
	again := f.object(ObjectParams{Pos: at(-10, 0), Scope: grid.Scope{}})
	f.walk(p, c, at(0, 0))
	f.advance(tick)
	shows, _ = objectOps(t, c.take())
	if !sameSet(showIDs(shows), []uint32{near, again}) {
		t.Fatalf("back: got shows %v, want %v", showIDs(shows), []uint32{near, again})
	}
	for _, s := range shows {
		if s.ObjectID == near && (s.X != 20 || s.Broken != 1) || s.ObjectID == again && s.X != -10 {
			t.Fatalf("back: got show %+v", *s)
		}
	}
}

// TestDeletedObjectSlotHoldsNothing: a deleted object's slot, kept for its
// chunk's other objects, points to nothing (its viewer that left, its
// movement, its parent): the table keeps no left player alive.
func TestDeletedObjectSlotHoldsNothing(t *testing.T) {
	f := newFixture(t, nil)
	a, ac := f.join()
	f.spawn(a, ac, at(0, 0))
	kept := f.object(ObjectParams{Pos: at(3, 0)})
	mine := f.object(ObjectParams{Pos: at(1, 0), Viewer: a})
	child := f.object(ObjectParams{Pos: at(2, 0), Viewer: a})
	f.attach(child, AttachParams{Kind: KindObject, ID: mine})
	if err := f.w.MoveObject(mine, at(9, 0), Rot{}, time.Second); err != nil {
		t.Fatal(err)
	}
	o, c := f.w.Object(mine), f.w.Object(child)
	f.advance(tick)
	f.w.Leave(a, wire.ReasonQuit)
	if f.w.Object(mine) != nil || f.w.Object(child) != nil || f.w.Object(kept) == nil {
		t.Fatal("the viewer's objects outlived it, or another went with them")
	}
	for _, d := range []*Object{o, c} {
		if d.viewer != nil || d.mv != nil || d.parent != nil || d.children != nil {
			t.Errorf("deleted object %d: viewer %p, mv %p, parent %p, children %v: want none", d.id, d.viewer, d.mv, d.parent, d.children)
		}
	}
	if o.ID() != mine || c.ID() != child {
		t.Errorf("deleted objects read ids %d, %d, want %d, %d", o.ID(), c.ID(), mine, child)
	}
}
