package world

import (
	"math"
	"slices"
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

func TestAttachedToPlayerShownWithParent(t *testing.T) {
	f := newFixture(t, nil)
	a, ac := f.join()
	b, bc := f.join()
	f.spawn(a, ac, at(0, 0))
	f.spawn(b, bc, at(100, 0))
	o := f.object(ObjectParams{Pos: at(100, 0), Distance: 1000})
	f.attach(o, AttachParams{Kind: KindPlayer, ID: uint32(b.ID()), Bone: 6, Offset: grid.Vec{X: 0.1}, Rot: Rot{X: 90}})
	f.advance(tick)
	for _, c := range []*testConn{ac, bc} {
		shows, _ := objectOps(t, c.take())
		if len(shows) != 1 {
			t.Fatalf("got %d shows, want the object on b to a (b shown) and to b (always shown to themselves)", len(shows))
		}
		s := shows[0]
		if s.AttachKind != wire.AttachPlayer || s.AttachID != uint32(b.ID()) || s.Bone != 6 || s.X != 0.1 || s.RX != 90 || s.ToX != 0.1 {
			t.Fatalf("got %+v, want attached to b on bone 6 at its offset", *s)
		}
	}
	// b walks past the player stream distance: the object's own 1000 m do
	// not keep it: it goes with b.
	f.walk(b, bc, at(PlayerStreamDistance+50, 0))
	f.advance(tick)
	got := ac.take()
	if _, hides := objectOps(t, got); !slices.Equal(hides, []uint32{o}) {
		t.Fatalf("got object hides %v, want [%d] with b hidden", hides, o)
	}
	if _, hides := playerShows(t, got); len(hides) != 1 {
		t.Fatal("b was not hidden")
	}
	if shows, hides := objectOps(t, bc.take()); len(shows)+len(hides) != 0 {
		t.Fatal("b's own view of its object changed as b walked")
	}
	f.walk(b, bc, at(50, 0))
	f.advance(tick)
	if shows, _ := objectOps(t, ac.take()); !slices.Equal(showIDs(shows), []uint32{o}) {
		t.Fatalf("got shows %v, want the object back with b", showIDs(shows))
	}
	// The parent changes scope: a is no longer in the parent's scope.
	if err := f.w.Teleport(b, Landing{Pos: at(50, 0), World: 9}); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	if _, hides := objectOps(t, ac.take()); !slices.Equal(hides, []uint32{o}) {
		t.Fatalf("got hides %v, want [%d] with its parent in another scope", hides, o)
	}
	if shows, hides := objectOps(t, bc.take()); len(hides) != 0 || len(shows) > 1 {
		t.Fatalf("b's own object: got shows %v hides %v, want it kept", showIDs(shows), hides)
	}
	if err := f.w.Teleport(b, Landing{Pos: at(50, 0)}); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	if shows, _ := objectOps(t, ac.take()); !slices.Equal(showIDs(shows), []uint32{o}) {
		t.Fatalf("got shows %v, want the object back with b in a's scope", showIDs(shows))
	}
	// The parent goes: the object goes with it.
	f.w.Leave(b, wire.ReasonQuit)
	if f.w.Object(o) != nil {
		t.Fatal("an object outlived the player it was attached to")
	}
	f.advance(tick)
	if _, hides := objectOps(t, ac.take()); !slices.Equal(hides, []uint32{o}) {
		t.Fatalf("got hides %v, want [%d]", hides, o)
	}
}

func TestAttachedToVehicle(t *testing.T) {
	f := newFixture(t, nil)
	a, ac := f.join()
	f.spawn(a, ac, at(0, 0))
	v := f.vehicle(VehicleParams{Pos: at(PlayerStreamDistance+50, 0)})
	o := f.object(ObjectParams{Pos: at(0, 0), Distance: 1000})
	c := f.object(ObjectParams{Pos: at(0, 0)})
	f.attach(o, AttachParams{Kind: KindVehicle, ID: uint32(v), Offset: grid.Vec{Z: 1}})
	f.attach(c, AttachParams{Kind: KindObject, ID: o, Offset: grid.Vec{Z: 1}})
	f.advance(tick)
	if shows, _ := objectOps(t, ac.take()); len(shows) != 0 {
		t.Fatalf("got shows %v of a vehicle's chain, the vehicle not shown", showIDs(shows))
	}
	if err := f.w.SetVehiclePose(v, at(30, 0), Quat{}, grid.Scope{}); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	if shows, _ := objectOps(t, ac.take()); !slices.Equal(showIDs(shows), []uint32{o, c}) {
		t.Fatalf("got shows %v, want the chain %v with its vehicle, parent first", showIDs(shows), []uint32{o, c})
	}
	if err := f.w.RespawnVehicle(v); err != nil {
		t.Fatal(err)
	}
	if k, id, _ := f.w.Object(o).Attachment(); k != KindVehicle || id != uint32(v) {
		t.Fatal("a vehicle's respawn detached its object")
	}
	f.advance(tick)
	ac.take()
	if err := f.w.SetVehiclePose(v, at(30, 0), Quat{}, grid.Scope{}); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	ac.take()
	if err := f.w.DeleteVehicle(v); err != nil {
		t.Fatal(err)
	}
	if f.w.Object(o) != nil || f.w.Object(c) != nil {
		t.Fatal("deleting the vehicle left its chain")
	}
	f.advance(tick)
	if _, hides := objectOps(t, ac.take()); !sameSet(hides, []uint32{o, c}) {
		t.Fatalf("got hides %v, want the whole chain", hides)
	}
}

func TestDeleteObjectDeletesItsChain(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, at(0, 0))
	root := f.object(ObjectParams{Pos: at(5, 0)})
	c1 := f.object(ObjectParams{Pos: at(5, 0)})
	c2 := f.object(ObjectParams{Pos: at(5, 0)})
	c3 := f.object(ObjectParams{Pos: at(5, 0)})
	f.attach(c1, AttachParams{Kind: KindObject, ID: root})
	f.attach(c2, AttachParams{Kind: KindObject, ID: c1})
	f.attach(c3, AttachParams{Kind: KindObject, ID: root})
	f.advance(tick)
	c.take()
	if err := f.w.DeleteObject(c1); err != nil {
		t.Fatal(err)
	}
	if f.w.Object(c2) != nil || f.w.Object(root) == nil || f.w.Object(c3) == nil {
		t.Fatal("deleting c1 must delete c2 below it and keep the rest")
	}
	if r := f.w.Object(root); r.chain != 1 {
		t.Fatalf("got chain %d at the root, want 1", r.chain)
	}
	f.advance(tick)
	if _, hides := objectOps(t, c.take()); !sameSet(hides, []uint32{c1, c2}) {
		t.Fatalf("got hides %v, want %v", hides, []uint32{c1, c2})
	}
}

func TestAttachRules(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, at(0, 0))
	v := f.vehicle(VehicleParams{Pos: at(5, 0)})
	pid := uint32(p.ID())
	obj := func() uint32 { return f.object(ObjectParams{Model: 1225, Pos: at(1, 0)}) }
	onBone := obj()
	f.attach(onBone, AttachParams{Kind: KindPlayer, ID: pid, Bone: 2})
	withChild := obj()
	f.attach(obj(), AttachParams{Kind: KindObject, ID: withChild})
	top := obj()
	mid := obj()
	f.attach(mid, AttachParams{Kind: KindObject, ID: top})
	broken := obj()
	if err := f.w.SetObjectBroken(broken, true); err != nil {
		t.Fatal(err)
	}
	other, oc := f.join()
	f.spawn(other, oc, at(0, 0))
	theirs := f.object(ObjectParams{Pos: at(1, 0), Viewer: other})

	tests := []struct {
		name string
		id   uint32
		ap   AttachParams
		arg  string
	}{
		{"bone on a vehicle", obj(), AttachParams{Kind: KindVehicle, ID: uint32(v), Bone: 1}, "bone"},
		{"bone on an object", obj(), AttachParams{Kind: KindObject, ID: top, Bone: 1}, "bone"},
		{"bone 18", obj(), AttachParams{Kind: KindPlayer, ID: pid, Bone: 18}, "bone"},
		{"carrier onto a bone", withChild, AttachParams{Kind: KindPlayer, ID: pid, Bone: 3}, "bone"},
		{"onto an object on a bone", obj(), AttachParams{Kind: KindObject, ID: onBone}, "parent"},
		{"in place onto a bone", obj(), AttachParams{Kind: KindPlayer, ID: pid, Bone: 3, InPlace: true}, "bone"},
		{"broken onto a bone", broken, AttachParams{Kind: KindPlayer, ID: pid, Bone: 3}, "broken"},
		{"onto itself", top, AttachParams{Kind: KindObject, ID: top}, "parent"},
		{"onto its own chain", top, AttachParams{Kind: KindObject, ID: mid}, "parent"},
		{"no such player", obj(), AttachParams{Kind: KindPlayer, ID: 999}, "parent"},
		{"no such vehicle", obj(), AttachParams{Kind: KindVehicle, ID: 77}, "parent"},
		{"no such object", obj(), AttachParams{Kind: KindObject, ID: 1 << 30}, "parent"},
		{"kind 0", obj(), AttachParams{}, "kind"},
		{"offset past 1000", obj(), AttachParams{Kind: KindVehicle, ID: uint32(v), Offset: grid.Vec{Y: 1000.5}}, "y"},
		{"another viewer's object", obj(), AttachParams{Kind: KindObject, ID: theirs}, "parent"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := *f.w.Object(tc.id)
			wantArgErr(t, f.w.AttachObject(tc.id, tc.ap), "attach_object", tc.arg)
			if after := f.w.Object(tc.id); after.kind != before.kind || after.parentID != before.parentID || after.rev != before.rev {
				t.Fatal("a refused attach changed the object")
			}
		})
	}
	// Attached objects do not move.
	wantArgErr(t, f.w.MoveObject(mid, at(3, 3), Rot{}, time.Second), "move_object", "object")
}

// near reports whether two poses agree to 1e-3.
func near(a, b grid.Vec) bool {
	return math.Abs(float64(a.X-b.X)) < 1e-3 && math.Abs(float64(a.Y-b.Y)) < 1e-3 && math.Abs(float64(a.Z-b.Z)) < 1e-3
}

func TestWorldPoseOfAttachedObjects(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, at(0, 0))
	f.syncWith(p, c, at(0, 0), func(s *wire.PlayerSync) { s.Heading = 90 })
	v := f.vehicle(VehicleParams{Pos: at(20, 0), Rot: Quat{Z: float32(math.Sqrt2 / 2), W: float32(math.Sqrt2 / 2)}})

	parent := f.object(ObjectParams{Pos: grid.Vec{X: 10, Z: 10}, Rot: Rot{Z: 90}})
	child := f.object(ObjectParams{Pos: at(0, 0)})
	f.attach(child, AttachParams{Kind: KindObject, ID: parent, Offset: grid.Vec{X: 1}, Rot: Rot{X: 90}})
	onPlayer := f.object(ObjectParams{Pos: at(0, 0)})
	f.attach(onPlayer, AttachParams{Kind: KindPlayer, ID: uint32(p.ID()), Offset: grid.Vec{X: 1}})
	onBone := f.object(ObjectParams{Pos: at(0, 0)})
	f.attach(onBone, AttachParams{Kind: KindPlayer, ID: uint32(p.ID()), Bone: 2, Offset: grid.Vec{X: 1}})
	onVehicle := f.object(ObjectParams{Pos: at(0, 0)})
	f.attach(onVehicle, AttachParams{Kind: KindVehicle, ID: uint32(v), Offset: grid.Vec{X: 1}})

	tests := []struct {
		name string
		id   uint32
		pos  grid.Vec
		rz   float32
	}{
		// Rz(90) turns the offset (1, 0, 0) into (0, 1, 0).
		{"on an object turned 90°", child, grid.Vec{X: 10, Y: 1, Z: 10}, 90},
		{"on a player heading 90° (only the heading counts)", onPlayer, grid.Vec{X: 0, Y: 1, Z: 10}, 90},
		{"on a bone: at the player's root", onBone, grid.Vec{X: 0, Y: 0, Z: 10}, 90},
		{"on a vehicle turned 90°", onVehicle, grid.Vec{X: 20, Y: 1, Z: 10}, 90},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pos, rot, ok := f.w.WorldPose(tc.id)
			if !ok || !near(pos, tc.pos) || math.Abs(float64(rot.Z-tc.rz)) > 1e-3 {
				t.Fatalf("got %v %v, want %v rz %v", pos, rot, tc.pos, tc.rz)
			}
		})
	}
	// The child's rotation is the parent's times its own: Rz(90)·Rx(90).
	if _, rot, _ := f.w.WorldPose(child); math.Abs(float64(rot.X-90)) > 1e-3 {
		t.Errorf("got child rotation %v, want rx 90 rz 90", rot)
	}

	// Detaching keeps the world pose; attaching in place keeps it too.
	if err := f.w.DetachObject(child); err != nil {
		t.Fatal(err)
	}
	if pos, rot, _ := f.w.WorldPose(child); !near(pos, grid.Vec{X: 10, Y: 1, Z: 10}) || math.Abs(float64(rot.Z-90)) > 1e-3 {
		t.Fatalf("detached: got %v %v, want where it stood", pos, rot)
	}
	if k, _, _ := f.w.Object(child).Attachment(); k != 0 {
		t.Fatal("still attached after DetachObject")
	}
	free := f.object(ObjectParams{Pos: grid.Vec{X: 12, Y: 3, Z: 11}, Rot: Rot{Z: 30}})
	f.attach(free, AttachParams{Kind: KindObject, ID: parent, InPlace: true})
	pos, rot, _ := f.w.WorldPose(free)
	if !near(pos, grid.Vec{X: 12, Y: 3, Z: 11}) || math.Abs(float64(rot.Z-30)) > 1e-3 {
		t.Fatalf("attached in place: got %v %v, want (12, 3, 11) rz 30", pos, rot)
	}
	_, _, _ = f.w.Object(free).Attachment()
	if o := f.w.Object(free); !near(o.pos, grid.Vec{X: 3, Y: -2, Z: 1}) {
		t.Fatalf("got offset %v, want parent⁻¹ applied: (3, -2, 1)", o.pos)
	}
}

func TestParentInteriorChangeResendsObject(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, at(0, 0))
	o := f.object(ObjectParams{Pos: at(0, 0)})
	k := f.object(ObjectParams{Pos: at(0, 0)})
	f.attach(o, AttachParams{Kind: KindPlayer, ID: uint32(p.ID()), Offset: grid.Vec{Z: 2}})
	f.attach(k, AttachParams{Kind: KindObject, ID: o, Offset: grid.Vec{Z: 1}})
	f.advance(tick)
	if shows, _ := objectOps(t, c.take()); len(shows) != 2 || shows[0].Interior != 0 {
		t.Fatalf("got %d shows, want the chain of 2 in interior 0", len(shows))
	}
	if err := f.w.Teleport(p, Landing{Pos: at(0, 0), Interior: 5}); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	shows, hides := objectOps(t, c.take())
	if len(hides) != 0 || !slices.Equal(showIDs(shows), []uint32{o, k}) {
		t.Fatalf("got shows %v hides %v, want the chain resent, no hide", showIDs(shows), hides)
	}
	for _, s := range shows {
		if s.Interior != 5 {
			t.Fatalf("got interior %d, want the parent's new interior 5", s.Interior)
		}
	}
}

func TestDeathAndRespawnDoNotDetach(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, at(0, 0))
	o := f.object(ObjectParams{Pos: at(0, 0)})
	f.attach(o, AttachParams{Kind: KindPlayer, ID: uint32(p.ID()), Bone: 2})
	f.advance(tick)
	c.take()
	f.sync(p, c, at(0, 0), 4) // dead
	if p.Life() != Dead {
		t.Fatal("not dead")
	}
	if err := f.w.Respawn(p, Landing{Pos: at(0, 0)}); err != nil {
		t.Fatal(err)
	}
	c.ackAll()
	f.advance(tick)
	f.sync(p, c, at(0, 0), 1)
	f.advance(tick)
	if k, id, bone := f.w.Object(o).Attachment(); k != KindPlayer || id != uint32(p.ID()) || bone != 2 {
		t.Fatalf("got attachment %v %d %d after death and respawn, want player %d bone 2", k, id, bone, p.ID())
	}
	got := c.take()
	if len(only[*wire.RespawnPlayer](got)) != 1 {
		t.Fatal("no RespawnPlayer")
	}
	if _, hides := objectOps(t, got); len(hides) != 0 {
		t.Fatalf("got hides %v across death and respawn", hides)
	}
}

func TestNewConnectionReceivesObjectsAgain(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, at(0, 0))
	o := f.object(ObjectParams{Pos: at(3, 0)})
	f.advance(tick)
	if shows, _ := objectOps(t, c.take()); !slices.Equal(showIDs(shows), []uint32{o}) {
		t.Fatal("not shown")
	}
	f.w.Leave(p, wire.ReasonTimeout)
	q, qc := f.join()
	if q.ID() != p.ID() {
		t.Fatal("the new connection took another id")
	}
	if shows, _ := objectOps(t, f.spawnAcked(q, qc, at(0, 0))); !slices.Equal(showIDs(shows), []uint32{o}) {
		t.Fatalf("got shows %v, want the object again on the new connection", showIDs(shows))
	}
}

// TestAttachedObjectsFollowAShowByTheViewersStep: a carrier standing still
// comes into a viewer's view of players by the viewer's own step of a few
// meters, short of the object requery distance: the objects on the
// carrier are shown with it, in the same tick (readOps invalidates the
// viewer's object view for a shown or hidden player with objects on it),
// and hidden with it when the viewer steps back out (ObjectRequery is 16).
func TestAttachedObjectsFollowAShowByTheViewersStep(t *testing.T) {
	f := newFixture(t, nil)
	a, ac := f.join()
	b, bc := f.join()
	f.spawn(a, ac, at(0, 0))
	f.spawn(b, bc, at(PlayerStreamDistance+2, 0))
	o := f.object(ObjectParams{Pos: at(PlayerStreamDistance+2, 0), Distance: 1000})
	f.attach(o, AttachParams{Kind: KindPlayer, ID: uint32(b.ID()), Bone: 6})
	for range 3 {
		f.advance(tick)
	}
	if shows, _ := playerShows(t, ac.take()); len(shows) != 0 {
		t.Fatalf("b was shown to a at %v m", PlayerStreamDistance+2)
	}
	f.walk(a, ac, at(6, 0)) // b within the stream distance; a's objects not due
	shownOn(t, f, ac, true, o)
	// Back out past the hold's 310 m, 15 m from where a's objects were last
	// computed: short of the requery distance again.
	f.walk(a, ac, at(-9, 0))
	shownOn(t, f, ac, false, o)
}

// shownOn advances up to a view cycle until c gets a player show (show) or
// hide, and checks that the same tick brings object o's show or hide.
func shownOn(t *testing.T, f *fixture, c *testConn, show bool, o uint32) {
	t.Helper()
	for range 2 * ViewRefreshTicks {
		f.advance(tick)
		got := c.take()
		shows, hides := playerShows(t, got)
		if show && len(shows) == 0 || !show && len(hides) == 0 {
			continue
		}
		oShows, oHides := objectOps(t, got)
		if show && !slices.Equal(showIDs(oShows), []uint32{o}) {
			t.Fatalf("got object shows %v in the player's show's tick, want [%d]", showIDs(oShows), o)
		}
		if !show && !slices.Equal(oHides, []uint32{o}) {
			t.Fatalf("got object hides %v in the player's hide's tick, want [%d]", oHides, o)
		}
		return
	}
	t.Fatalf("no player show (%v) within %d ticks", show, 2*ViewRefreshTicks)
}
