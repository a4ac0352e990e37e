package world

import (
	"slices"
	"testing"
	"time"

	"dlmp/internal/config"
	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

func TestCreateObjectUsesWireRules(t *testing.T) {
	f := newFixture(t, nil)
	tests := []struct {
		name string
		op   ObjectParams
		arg  string
	}{
		{"vehicle model", ObjectParams{Model: 411}, "model"},
		{"ped model", ObjectParams{Model: 7}, "model"},
		{"above the table", ObjectParams{Model: 20000}, "model"},
		{"outside the world", ObjectParams{Model: 1337, Pos: grid.Vec{Y: -6000.5}}, "y"},
		{"below the world", ObjectParams{Model: 1337, Pos: grid.Vec{Z: -201}}, "z"},
		{"rotation past 3600", ObjectParams{Model: 1337, Rot: Rot{Z: 3600.5}}, "rz"},
		{"distance past 3000", ObjectParams{Model: 1337, Distance: 3001}, "distance"},
		{"negative distance", ObjectParams{Model: 1337, Distance: -1}, "distance"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.w.CreateObject(tc.op)
			wantArgErr(t, err, "create_object", tc.arg)
		})
	}
	if f.w.Objects() != 0 {
		t.Fatalf("got %d objects after refusals, want 0", f.w.Objects())
	}
	a := f.object(ObjectParams{})
	b := f.object(ObjectParams{Model: 321}) // a weapon model is an object model too
	if a != 1 || b != 2 {
		t.Fatalf("got ids %d, %d, want 1, 2", a, b)
	}
	if err := f.w.DeleteObject(a); err != nil {
		t.Fatal(err)
	}
	if c := f.object(ObjectParams{}); c != 3 {
		t.Fatalf("got id %d after a delete, want 3 (never reused)", c)
	}
}

func TestObjectStreamingByScopeAndDistance(t *testing.T) {
	f := newFixture(t, func(c *config.Config) { c.World.ObjectStreamDistance = 120 })
	p, c := f.join()
	f.spawn(p, c, at(0, 0))
	near := f.object(ObjectParams{Pos: at(50, 0), Distance: 100})
	short := f.object(ObjectParams{Pos: at(150, 0), Distance: 100})
	long := f.object(ObjectParams{Pos: at(150, 0), Distance: 200})
	def := f.object(ObjectParams{Pos: at(0, 110)})                                   // the configured 120 m
	defFar := f.object(ObjectParams{Pos: at(0, -130)})                               // past it
	inside := f.object(ObjectParams{Pos: at(10, 0), Scope: grid.Scope{Interior: 1}}) // another scope
	f.advance(tick)
	shows, hides := objectOps(t, c.take())
	if !sameSet(showIDs(shows), []uint32{near, long, def}) || len(hides) != 0 {
		t.Fatalf("got shows %v, want %v (scope, each object's own distance)", showIDs(shows), []uint32{near, long, def})
	}
	_, _ = short, defFar
	s := shows[0]
	if s.Active != 1 || s.Model != 1337 || s.AttachKind != 0 || s.MoveMS != 0 || s.Rev != 1 || s.Interior != 0 {
		t.Errorf("got show %+v", *s)
	}
	if !f.w.StreamedTo(KindObject, near, p) || f.w.StreamedTo(KindObject, inside, p) {
		t.Error("StreamedTo disagrees with the shows")
	}

	// Walking east: near leaves (past 100 + the requery slack), short enters.
	f.walk(p, c, at(110, 0))
	f.advance(tick)
	shows, hides = objectOps(t, c.take())
	if !sameSet(showIDs(shows), []uint32{short}) || !sameSet(hides, []uint32{def}) {
		t.Fatalf("at x 110: got shows %v hides %v, want shows [%d] hides [%d]", showIDs(shows), hides, short, def)
	}
	// Into the interior at the same point: everything of scope 0 goes, the interior's comes.
	if err := f.w.Teleport(p, Landing{Pos: at(10, 0), Interior: 1}); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	shows, hides = objectOps(t, c.take())
	if !sameSet(showIDs(shows), []uint32{inside}) || !sameSet(hides, []uint32{near, short, long}) {
		t.Fatalf("in the interior: got shows %v hides %v", showIDs(shows), hides)
	}
}

func TestObjectLimitAndChainsCountWhole(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, at(0, 0))
	// 996 lone objects at 1..996 cm, a chain of 5 (root + 4) at 10 m, 10 more lone ones past it.
	for i := range 996 {
		f.object(ObjectParams{Pos: grid.Vec{X: float32(i+1) / 100, Z: 10}})
	}
	root := f.object(ObjectParams{Pos: at(10, 0)})
	var chain []uint32
	parent := root
	for range 4 {
		o := f.object(ObjectParams{Pos: at(10, 0)})
		f.attach(o, AttachParams{Kind: KindObject, ID: parent, Offset: grid.Vec{Z: 1}})
		chain = append(chain, o)
		parent = o
	}
	var farther []uint32
	for i := range 10 {
		farther = append(farther, f.object(ObjectParams{Pos: at(20+float32(i), 0)}))
	}
	f.advance(tick)
	shows, _ := objectOps(t, c.take())
	if len(shows) != 996 {
		t.Fatalf("got %d shows, want the 996 nearest: the chain of 5 does not fit and ends the list", len(shows))
	}
	for _, id := range append(append([]uint32{root}, chain...), farther...) {
		if f.w.StreamedTo(KindObject, id, p) {
			t.Fatalf("object %d shown past a chain that did not fit", id)
		}
	}
	// Deleting 6 lone objects makes room: 990 + the chain of 5 + the 5 nearest farther ones.
	for id := uint32(1); id <= 6; id++ {
		if err := f.w.DeleteObject(id); err != nil {
			t.Fatal(err)
		}
	}
	f.advance(tick)
	shows, hides := objectOps(t, c.take())
	if len(hides) != 6 {
		t.Fatalf("got %d hides, want the 6 deleted", len(hides))
	}
	want := append(append([]uint32{root}, chain...), farther[:5]...)
	if got := showIDs(shows); !slices.Equal(got, want) {
		t.Fatalf("got shows %v, want the whole chain, parents first, then the 5 nearest farther: %v", got, want)
	}
	if f.w.Object(0) != nil || c.free < 0 {
		t.Fatal("bookkeeping")
	}
}

func TestObjectViewer(t *testing.T) {
	f := newFixture(t, nil)
	a, ac := f.join()
	b, bc := f.join()
	f.spawn(a, ac, at(0, 0))
	f.spawn(b, bc, at(5, 0))
	mine := f.object(ObjectParams{Pos: at(1, 0), Viewer: a})
	f.advance(tick)
	if shows, _ := objectOps(t, ac.take()); !slices.Equal(showIDs(shows), []uint32{mine}) {
		t.Fatalf("viewer: got shows %v, want [%d]", showIDs(shows), mine)
	}
	if shows, _ := objectOps(t, bc.take()); len(shows) != 0 {
		t.Fatalf("another player was shown a per-player object: %v", showIDs(shows))
	}
	f.w.Leave(a, wire.ReasonQuit)
	if f.w.Object(mine) != nil {
		t.Fatal("a per-player object outlived its viewer")
	}
}

func TestObjectShowsKeepReserveNearestFirst(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, at(0, 0))
	var ids []uint32
	for i := range 5 {
		ids = append(ids, f.object(ObjectParams{Pos: at(float32(50-10*i), 0)})) // nearest created last
	}
	c.free = SendReserve + 3
	f.advance(tick)
	shows, _ := objectOps(t, c.take())
	if got, want := showIDs(shows), []uint32{ids[4], ids[3], ids[2]}; !slices.Equal(got, want) {
		t.Fatalf("got shows %v, want the 3 nearest %v, nearest first, reserve kept", got, want)
	}
	if c.free != SendReserve {
		t.Fatalf("got %d free, want the reserve %d", c.free, SendReserve)
	}
	c.free = 100
	f.advance(tick)
	if shows, _ = objectOps(t, c.take()); !slices.Equal(showIDs(shows), []uint32{ids[1], ids[0]}) {
		t.Fatalf("next pass: got %v, want the rest", showIDs(shows))
	}
}

func TestObjectMovement(t *testing.T) {
	f := newFixture(t, nil)
	a, ac := f.join()
	f.spawn(a, ac, at(0, 0))
	id := f.object(ObjectParams{Pos: at(0, 10)})
	f.advance(tick)
	ac.take()

	if err := f.w.MoveObject(id, at(0, 20), Rot{Z: 90}, 0); err == nil {
		t.Fatal("a movement of 0 s: got no error")
	}
	wantArgErr(t, f.w.MoveObject(id, at(0, 7000), Rot{}, time.Second), "move_object", "to_y")
	if err := f.w.MoveObject(id, at(0, 20), Rot{Z: 90}, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	f.advance(0)
	shows, _ := objectOps(t, ac.take())
	if len(shows) != 1 {
		t.Fatalf("got %d shows at the start of the move, want 1", len(shows))
	}
	s := shows[0]
	if s.MoveMS != 10000 || s.Y != 10 || s.ToY != 20 || s.ToRZ != 90 || s.Rev != 2 {
		t.Fatalf("got %+v, want move_ms 10000 from y 10 to y 20, rz 90, rev 2", *s)
	}

	// A player arriving 4 s in gets the pose 40 % along and the 6 s left.
	f.advance(4 * time.Second)
	b, bc := f.join()
	shows, _ = objectOps(t, f.spawnAcked(b, bc, at(0, 0)))
	if len(shows) != 1 || shows[0].MoveMS != 6000 || shows[0].Y != 14 || shows[0].RZ != 36 || shows[0].ToY != 20 {
		t.Fatalf("got %+v, want y 14, rz 36, move_ms 6000, target y 20", shows)
	}
	if got := only[*wire.ObjectState](ac.take()); len(got) != 0 {
		t.Fatalf("the first viewer got %d ObjectStates during the move, want none", len(got))
	}

	f.advance(6*time.Second - tick)
	if len(f.gm.moveEnds) != 0 {
		t.Fatal("object_move_end before the end")
	}
	f.advance(tick)
	if !slices.Equal(f.gm.moveEnds, []uint32{id}) {
		t.Fatalf("got object_move_end %v, want [%d] once at the end", f.gm.moveEnds, id)
	}
	if n := len(only[*wire.ObjectState](ac.take())) + len(only[*wire.ObjectState](bc.take())); n != 0 {
		t.Fatalf("the end of a move sent %d ObjectStates, want none", n)
	}
	f.advance(time.Second)
	if len(f.gm.moveEnds) != 1 {
		t.Fatal("object_move_end fired again")
	}
	c, cc := f.join()
	shows, _ = objectOps(t, f.spawnAcked(c, cc, at(0, 0)))
	if len(shows) != 1 || shows[0].MoveMS != 0 || shows[0].Y != 20 || shows[0].RZ != 90 {
		t.Fatalf("after the end: got %+v, want standing at the target", shows)
	}
}

func TestObjectBreaking(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, at(0, 0))
	const barrel, house = 1225, 1337 // 1225 breaks (flag b), 1337 does not
	if !wire.IsBreakableModel(barrel) || wire.IsBreakableModel(house) {
		t.Fatal("model table changed: pick other models")
	}
	b := f.object(ObjectParams{Model: barrel, Pos: at(3, 0)})
	h := f.object(ObjectParams{Model: house, Pos: at(4, 0)})
	f.advance(tick)
	c.take()
	wantArgErr(t, f.w.SetObjectBroken(h, true), "set_broken", "object")
	if err := f.w.SetObjectBroken(b, false); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	if got := c.take(); len(got) != 0 {
		t.Fatalf("repeating the current state sent %d packets", len(got))
	}
	for _, want := range []uint8{1, 0} {
		if err := f.w.SetObjectBroken(b, want == 1); err != nil {
			t.Fatal(err)
		}
		if err := f.w.SetObjectBroken(b, want == 1); err != nil { // repeated: nothing more
			t.Fatal(err)
		}
		f.advance(tick)
		shows, _ := objectOps(t, c.take())
		if len(shows) != 1 || shows[0].Broken != want {
			t.Fatalf("got %+v, want one show with broken %d", shows, want)
		}
	}
	// Never on a bone.
	f.attach(b, AttachParams{Kind: KindPlayer, ID: uint32(p.ID()), Bone: 2})
	err := f.w.SetObjectBroken(b, true)
	wantArgErr(t, err, "set_broken", "object")
	if f.w.Object(b).Broken() {
		t.Fatal("an object on a bone broke")
	}
}

// TestObjectLimitCountsOwnChainsFirst: a player's own chain is always
// shown and counts against the 1000, with or without a chain not for this
// player among the nearest (which makes the world select again).
func TestObjectLimitCountsOwnChainsFirst(t *testing.T) {
	for _, foreign := range []bool{false, true} {
		f := newFixture(t, nil)
		p, c := f.join()
		other, oc := f.join()
		f.spawn(p, c, at(0, 0))
		f.spawn(other, oc, at(2000, 0))
		root := f.object(ObjectParams{Pos: at(0, 0)})
		f.attach(root, AttachParams{Kind: KindPlayer, ID: uint32(p.ID())})
		for range 2 {
			f.attach(f.object(ObjectParams{Pos: at(0, 0)}), AttachParams{Kind: KindObject, ID: root})
		}
		if foreign {
			f.object(ObjectParams{Pos: at(0.001, 0), Viewer: other})
		}
		for i := range 1000 {
			f.object(ObjectParams{Pos: grid.Vec{X: float32(i+1) / 10, Z: 10}})
		}
		f.advance(tick)
		shows, _ := objectOps(t, c.take())
		if len(shows) != 1000 || p.ent.objects.Len() != 1000 {
			t.Fatalf("foreign %v: got %d shows, want exactly the limit 1000", foreign, len(shows))
		}
		for _, s := range shows[:3] {
			if s.AttachKind == 0 && s.ObjectID != root {
				t.Fatalf("foreign %v: got %v first, want the player's own chain first", foreign, showIDs(shows[:3]))
			}
		}
		if !f.w.StreamedTo(KindObject, root, p) {
			t.Fatalf("foreign %v: own chain not shown", foreign)
		}
	}
}

// TestMovingObjectStreamsAsItMoves: a moving object enters a player's view
// when it comes within its distance, with the time left, and StopObject
// stands it where it is.
func TestMovingObjectStreamsAsItMoves(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, at(0, 0))
	id := f.object(ObjectParams{Pos: at(0, 300), Distance: 100})
	if err := f.w.MoveObject(id, at(0, 0), Rot{}, 30*time.Second); err != nil { // 10 m/s toward p
		t.Fatal(err)
	}
	var shown *wire.ObjectState
	for i := 0; i < 600 && shown == nil; i++ {
		f.advance(tick)
		if shows, _ := objectOps(t, c.take()); len(shows) > 0 {
			shown = shows[0]
		}
	}
	if shown == nil {
		t.Fatal("the moving object never entered the view")
	}
	elapsed := f.now.Sub(t0).Seconds()
	if shown.Y > 100+EntityRequery+1 || shown.Y < 100-ObjectRequery-EntityRequery || shown.MoveMS == 0 || shown.ToY != 0 {
		t.Fatalf("got %+v after %.2f s, want it shown as it came within ~100 m, still moving to y 0", *shown, elapsed)
	}
	f.advance(time.Second)
	if got := only[*wire.ObjectState](c.take()); len(got) != 0 {
		t.Fatalf("got %d ObjectStates while it moves on, want none", len(got))
	}
	if err := f.w.StopObject(id); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	shows, _ := objectOps(t, c.take())
	if len(shows) != 1 || shows[0].MoveMS != 0 || shows[0].Y != shown.Y-10 || shows[0].ToY != shows[0].Y {
		t.Fatalf("after StopObject: got %+v (first shown %+v), want one show standing where it stopped", *shows[0], *shown)
	}
	f.advance(30 * time.Second)
	if len(f.gm.moveEnds) != 0 {
		t.Fatal("object_move_end after StopObject")
	}
}

// TestVehicleInteriorResendsItsObjects: a vehicle placed in another
// interior resends its chain with the new interior to the players there.
func TestVehicleInteriorResendsItsObjects(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawnIn(p, c, at(0, 0), grid.Scope{Interior: 4})
	v := f.vehicle(VehicleParams{Pos: at(5, 0)})
	o := f.object(ObjectParams{Pos: at(0, 0)})
	f.attach(o, AttachParams{Kind: KindVehicle, ID: uint32(v), Offset: grid.Vec{Z: 1}})
	f.advance(tick)
	if shows, _ := objectOps(t, c.take()); len(shows) != 0 {
		t.Fatal("shown from another interior")
	}
	if err := f.w.SetVehiclePose(v, at(5, 0), Quat{}, grid.Scope{Interior: 4}); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	shows, _ := objectOps(t, c.take())
	if len(shows) != 1 || shows[0].Interior != 4 || shows[0].AttachKind != wire.AttachVehicle {
		t.Fatalf("got %+v, want the vehicle's object in interior 4", shows)
	}
}

// TestObjectsAHairApartAtTheSpawn spawns a player on 60 objects that stand
// at one point or 1e-20 m from it: the shows' squared distances differ by
// less than float32 can divide into buckets. Every object is shown, in a
// spawn that does not panic (stream.spanSort once took that span's
// infinite scale to a bucket index out of range: session 11's review).
func TestObjectsAHairApartAtTheSpawn(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.joinE()
	want := map[uint32]bool{}
	for i := range 60 {
		pos := grid.Vec{Z: 10}
		if i%2 == 1 {
			pos.X = 1e-20
		}
		want[f.object(ObjectParams{Pos: pos})] = true
	}
	shows, hides := objectOps(t, f.spawnAcked(p, c.testConn, grid.Vec{Z: 10}))
	if len(hides) != 0 {
		t.Errorf("hides %v, want none", hides)
	}
	got := map[uint32]bool{}
	for _, id := range showIDs(shows) {
		got[id] = true
	}
	if len(got) != len(want) {
		t.Fatalf("shown %d distinct objects, want %d", len(got), len(want))
	}
	for id := range want {
		if !got[id] {
			t.Errorf("object %d not shown", id)
		}
	}
}
