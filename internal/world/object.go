package world

import (
	"fmt"
	"math"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/pose"
	"dlmp/internal/wire"
)

// Objects (world.md ObjectState; ADR 0128). The gamemode creates, places,
// moves, breaks, attaches and deletes objects; the reconcile in
// object_stream.go turns that state into ObjectState shows and hides, every
// one critical.
//
// Chains: an object attached to nothing, or to a player or a vehicle, is the
// root of a chain; objects attached to an object belong to the chain of its
// root. Only roots are in the object grid (of the root's scope: its own, or
// its parent's), at the root's position (its parent's for a player or a
// vehicle), covering the root's stream distance, weighing 1 + the objects
// below it: a chain is streamed as a whole or not at all. A chain holds at
// most MaxChain objects below its root.
const (
	// MaxObjectDistance is the largest stream distance of an object, meters.
	MaxObjectDistance = 3000
	// DefaultObjectDistance is the stream distance used when the
	// configuration's world.object_stream_distance is unusable.
	DefaultObjectDistance = 300
	// MaxChain is how many objects one chain holds below its root: with the
	// root, the 1000 objects one player is shown at most.
	MaxChain = 999
	// MaxMoveTime is the longest movement (move_ms up to 3 600 000).
	MaxMoveTime = wire.MaxObjectMoveMS * time.Millisecond
	// ObjectRequery is how far, meters, a player moves before their object
	// view is computed again (see [stream.Anchor]; ADR 0128): an object may
	// appear up to this much late and stay up to this much past its stream
	// distance. A change of an object near the player computes it at once.
	ObjectRequery = 16
	// objectCell is the object grid's cell side, meters.
	objectCell = 64
)

// Rot is a rotation in degrees as ObjectState carries it, applied
// Rz(z)·Rx(x)·Ry(y) (see package pose).
type Rot struct{ X, Y, Z float32 }

// Object is one server object. Read it with [World.Object].
type Object struct {
	// What a show reads (fillObject), in the first 64 bytes: one cache
	// line, as an Object is 128 bytes (TestObjectSize) in a table's chunk
	// that is page-aligned (objectTable), which sendObjectOps loads in its
	// second loop (id and mv). The fields are laid out with no padding to
	// reach 128.
	id       uint32
	model    uint16
	bone     uint8
	broken   bool
	pos      grid.Vec // world position, or the offset from the parent when attached
	rot      Rot      // relative to the parent when attached
	rev      uint32
	parentID uint32 // player id, vehicle id or object id
	scope    grid.Scope
	kind     Kind        // 0: attached to nothing
	inGrid   bool        // a chain root in a grid
	ruled    bool        // a chain root in the grid of roots with a per-player rule (rootScopes)
	live     bool        // not deleted (objectTable)
	mv       *objectMove // nil when standing

	dist     float32
	h        grid.Handle // a chain root's, in its grid
	viewer   *Player     // nil: every player
	parent   *Object
	children []*Object

	// Chain roots only.
	gscope grid.Scope
	chain  int // objects below the root
}

// objectHot is what the wanted set reads of every root a query finds, kept
// in a dense array by id so that a query does not chase a pointer per hit.
type objectHot struct {
	rev     uint32
	members uint64 // of a root in a grid: Σ Mix over the objects below it (chainSum)
}

// objectMove is a movement in progress.
type objectMove struct {
	pose.Move
	start time.Time
}

// ID returns the object id.
func (o *Object) ID() uint32 { return o.id }

// Model returns the object model.
func (o *Object) Model() uint16 { return o.model }

// Broken reports whether the object is broken.
func (o *Object) Broken() bool { return o.broken }

// Rev returns the object revision, bumped by every change a show carries.
func (o *Object) Rev() uint32 { return o.rev }

// Moving reports whether a movement is in progress.
func (o *Object) Moving() bool { return o.mv != nil }

// Attachment returns what the object is attached to (kind 0 for nothing),
// the parent's id and the bone.
func (o *Object) Attachment() (Kind, uint32, uint8) { return o.kind, o.parentID, o.bone }

// ObjectParams is what create_object takes.
type ObjectParams struct {
	Model uint16   // an object model of the server's model table
	Pos   grid.Vec // within world bounds
	Rot   Rot      // degrees, |r| ≤ 3600
	Scope grid.Scope
	// Distance is the stream distance, meters, (0, 3000]; 0 means
	// world.object_stream_distance.
	Distance float32
	// Viewer, when not nil, is the only player the object is shown to; the
	// object is deleted when the viewer leaves.
	Viewer *Player
}

// CreateObject creates an object and returns its id (monotonic, never
// reused). Model, position and rotation are checked with ObjectState's send
// rules; the error names the argument.
func (w *World) CreateObject(op ObjectParams) (uint32, error) {
	const fn = "create_object"
	if op.Distance == 0 {
		op.Distance = w.ents.objectDist
	}
	if !(op.Distance > 0 && op.Distance <= MaxObjectDistance) {
		return 0, &ArgError{Func: fn, Arg: "distance", Rule: fmt.Sprintf("must be in (0, %d], got %v", MaxObjectDistance, op.Distance)}
	}
	if op.Viewer != nil && (op.Viewer.left || w.Player(op.Viewer.id) != op.Viewer) {
		return 0, stateErr(fn, "viewer", "player %d is not connected", op.Viewer.id)
	}
	n := Object{model: op.Model, pos: op.Pos, rot: op.Rot, scope: op.Scope, dist: op.Distance, viewer: op.Viewer, rev: 1}
	n.id = w.ents.nextObject + 1
	if err := w.objectShow(&n).CheckSend(); err != nil {
		return 0, fieldArgErr(fn, err)
	}
	w.ents.nextObject++
	o := w.ents.objects.add(n)
	w.ents.hot = append(w.ents.hot, objectHot{rev: o.rev})
	w.ents.objectN++
	if o.viewer != nil {
		o.viewer.ent.owned = append(o.viewer.ent.owned, o)
	}
	w.placeRoot(o)
	w.objectTouched(o)
	return o.id, nil
}

// Object returns the object with the id, or nil.
func (w *World) Object(id uint32) *Object {
	return w.ents.objects.get(id)
}

// Objects returns the number of objects.
func (w *World) Objects() int { return w.ents.objectN }

func (w *World) object(fn string, id uint32) (*Object, error) {
	o := w.Object(id)
	if o == nil {
		return nil, stateErr(fn, "object", "no object %d", id)
	}
	return o, nil
}

// DeleteObject deletes the object with its whole chain: every object
// attached below it goes too. Every player shown one of them gets its hide.
func (w *World) DeleteObject(id uint32) error {
	o, err := w.object("delete_object", id)
	if err != nil {
		return err
	}
	w.detachFromParent(o)
	w.deleteChain(o)
	return nil
}

// SetObjectPose places the object (its offset and relative rotation when
// attached), stopping a movement without object_move_end. Checked with
// ObjectState's send rules.
func (w *World) SetObjectPose(id uint32, pos grid.Vec, rot Rot) error {
	const fn = "set_object_pose"
	o, err := w.object(fn, id)
	if err != nil {
		return err
	}
	t := *o
	t.pos, t.rot, t.mv = pos, rot, nil
	if err := w.objectShow(&t).CheckSend(); err != nil {
		return fieldArgErr(fn, err)
	}
	w.stopMove(o)
	o.pos, o.rot = pos, rot
	w.objectChanged(o)
	return nil
}

// MoveObject starts a uniform linear movement of an unattached object from
// its current pose to the target over d (up to an hour). The server
// computes the end: object_move_end fires when d has passed, and every show
// meanwhile carries the time left.
func (w *World) MoveObject(id uint32, to grid.Vec, toRot Rot, d time.Duration) error {
	const fn = "move_object"
	o, err := w.object(fn, id)
	if err != nil {
		return err
	}
	if o.kind != 0 {
		return stateErr(fn, "object", "object %d is attached (to a %v): attached objects do not move", id, o.kind)
	}
	if d <= 0 || d > MaxMoveTime {
		return &ArgError{Func: fn, Arg: "duration", Rule: fmt.Sprintf("must be in (0, %v], got %v", MaxMoveTime, d)}
	}
	from, fromRot := w.currentPose(o)
	mv := &objectMove{Move: pose.Move{From: vec64(from), To: vec64(to), FromRot: rot64(fromRot), ToRot: rot64(toRot), Duration: d}, start: w.now}
	t := *o
	t.mv = mv
	if err := w.objectShow(&t).CheckSend(); err != nil {
		return fieldArgErr(fn, err) // names the target's field (to_x ...)
	}
	w.stopMove(o)
	o.pos, o.rot, o.mv = from, fromRot, mv
	w.ents.moving = append(w.ents.moving, o)
	w.objectChanged(o)
	return nil
}

// StopObject stops a movement where the object is now, without
// object_move_end.
func (w *World) StopObject(id uint32) error {
	o, err := w.object("stop_object", id)
	if err != nil {
		return err
	}
	if o.mv == nil {
		return nil
	}
	o.pos, o.rot = w.currentPose(o)
	w.stopMove(o)
	w.objectChanged(o)
	return nil
}

// SetObjectBroken breaks (true) or restores an object (Object:set_broken).
// Only a model the game can break, never on a bone; repeating the current
// state sends nothing.
func (w *World) SetObjectBroken(id uint32, broken bool) error {
	const fn = "set_broken"
	o, err := w.object(fn, id)
	if err != nil {
		return err
	}
	if !wire.IsBreakableModel(int(o.model)) {
		return &ArgError{Func: fn, Arg: "object", Rule: fmt.Sprintf("model %d cannot break", o.model)}
	}
	if o.bone != 0 {
		return stateErr(fn, "object", "object %d is on bone %d: an object on a bone never breaks", id, o.bone)
	}
	if o.broken == broken {
		return nil
	}
	o.broken = broken
	w.objectChanged(o)
	return nil
}

// AttachParams says where an object goes: to a player (with a bone or the
// root), a vehicle or another object, at an offset and a relative rotation,
// or, with InPlace, where it stands now (the offset computed from both world
// poses; never onto a bone).
type AttachParams struct {
	Kind    Kind
	ID      uint32 // player id, vehicle id or object id
	Bone    uint8  // 1..17 on a player; 0 = the body's root
	Offset  grid.Vec
	Rot     Rot
	InPlace bool
}

// AttachObject attaches an object, with what is attached below it, to a
// player, a vehicle or an object. A moving object stops first (without
// object_move_end). Refused: a parent that does not exist, an object of its
// own chain, a bone not on a player, a bone for an object that carries
// others or is broken, a parent on a bone, another viewer's chain, a chain
// past MaxChain, and an offset ObjectState cannot carry.
func (w *World) AttachObject(id uint32, ap AttachParams) error {
	const fn = "attach_object"
	o, err := w.object(fn, id)
	if err != nil {
		return err
	}
	var parent *Object
	switch ap.Kind {
	case KindPlayer:
		if ap.ID > math.MaxUint16 || w.Player(uint16(ap.ID)) == nil {
			return stateErr(fn, "parent", "no player %d", ap.ID)
		}
	case KindVehicle:
		if ap.ID > math.MaxUint16 || w.Vehicle(uint16(ap.ID)) == nil {
			return stateErr(fn, "parent", "no vehicle %d", ap.ID)
		}
	case KindObject:
		if parent = w.Object(ap.ID); parent == nil {
			return stateErr(fn, "parent", "no object %d", ap.ID)
		}
		for a := parent; a != nil; a = a.parent {
			if a == o {
				return stateErr(fn, "parent", "object %d is in the chain below object %d", ap.ID, id)
			}
		}
		if parent.bone != 0 {
			return stateErr(fn, "parent", "object %d is on a bone: it carries no other objects", ap.ID)
		}
		if parent.viewer != o.viewer || w.chainRoot(parent).viewer != o.viewer {
			return stateErr(fn, "parent", "object %d has another viewer", ap.ID)
		}
		if r := w.chainRoot(parent); r != w.chainRoot(o) && r.chain+1+subtree(o) > MaxChain {
			return stateErr(fn, "parent", "the chain would hold more than %d objects", MaxChain)
		}
	default:
		return &ArgError{Func: fn, Arg: "kind", Rule: fmt.Sprintf("must be player, vehicle or object, got %d", ap.Kind)}
	}
	if ap.Bone != 0 {
		switch {
		case ap.InPlace:
			return &ArgError{Func: fn, Arg: "bone", Rule: "must be 0 when attaching in place"}
		case len(o.children) > 0:
			return stateErr(fn, "bone", "object %d carries other objects: an object on a bone carries none", id)
		}
	}
	offset, rot := ap.Offset, ap.Rot
	if ap.InPlace {
		offset, rot = w.inPlace(o, ap)
	}
	t := *o
	t.kind, t.parentID, t.parent, t.bone, t.pos, t.rot, t.mv = ap.Kind, ap.ID, parent, ap.Bone, offset, rot, nil
	s := w.objectShow(&t)
	if err := s.CheckSend(); err != nil {
		return fieldArgErr(fn, err)
	}
	w.stopMove(o)
	w.detachFromParent(o)
	o.kind, o.parentID, o.parent, o.bone, o.pos, o.rot = ap.Kind, ap.ID, parent, ap.Bone, offset, rot
	switch ap.Kind {
	case KindPlayer:
		pl := w.Player(uint16(ap.ID))
		pl.ent.attached = append(pl.ent.attached, o)
		w.placeRoot(o)
	case KindVehicle:
		v := w.Vehicle(uint16(ap.ID))
		v.attached = append(v.attached, o)
		w.placeRoot(o)
	case KindObject:
		parent.children = append(parent.children, o)
		r := w.chainRoot(parent)
		r.chain += 1 + o.chain
		o.chain = 0
		w.setWeight(r)
	}
	w.bumpChain(o)
	w.objectTouched(o)
	return nil
}

// DetachObject detaches an object, with its chain, where it stands: it
// becomes a root attached to nothing at its world pose (of a player's
// object, the player's root pose and heading; the server does not know a
// bone's pose), in its parent's scope.
func (w *World) DetachObject(id uint32) error {
	const fn = "detach_object"
	o, err := w.object(fn, id)
	if err != nil {
		return err
	}
	if o.kind == 0 {
		return nil
	}
	wp := w.worldPose(o)
	pos, rot := toGrid(wp.Pos), toRot(wp.Rot.Angles())
	t := *o
	t.kind, t.parentID, t.parent, t.bone, t.pos, t.rot = 0, 0, nil, 0, pos, rot
	if err := w.objectShow(&t).CheckSend(); err != nil {
		return fieldArgErr(fn, err) // a parent outside the bounds a standing object may have
	}
	sc := w.chainRoot(o).gscope
	w.detachFromParent(o)
	o.kind, o.parentID, o.parent, o.bone, o.pos, o.rot, o.scope = 0, 0, nil, 0, pos, rot, sc
	w.placeRoot(o)
	w.bumpChain(o)
	w.objectTouched(o)
	return nil
}

// currentPose returns the object's pose now (along its movement).
func (w *World) currentPose(o *Object) (grid.Vec, Rot) {
	if o.mv == nil {
		return o.pos, o.rot
	}
	p, a := o.mv.At(w.now.Sub(o.mv.start))
	return toGrid(p), Rot{float32(a.RX), float32(a.RY), float32(a.RZ)}
}

func (w *World) stopMove(o *Object) {
	if o.mv == nil {
		return
	}
	o.mv = nil
	for i, m := range w.ents.moving {
		if m == o {
			w.ents.moving = append(w.ents.moving[:i], w.ents.moving[i+1:]...)
			break
		}
	}
}

// tickObjectMoves ends the movements whose time is up (the object stands at
// its target; no packet: every client meets the end by itself), raises
// object_move_end for each, and keeps the grid position of moving roots.
func (w *World) tickObjectMoves(now time.Time) {
	if len(w.ents.moving) == 0 {
		return
	}
	var ended []uint32
	kept := w.ents.moving[:0]
	for _, o := range w.ents.moving {
		if now.Sub(o.mv.start) >= o.mv.Duration {
			o.pos, o.rot = toGrid(o.mv.To), toRot(o.mv.ToRot)
			o.mv = nil
			ended = append(ended, o.id)
		} else {
			kept = append(kept, o)
		}
		if o.inGrid {
			pos, _ := w.currentPose(o)
			if grid.Dist2(pos, w.rootGridPos(o)) > EntityRequery*EntityRequery || o.mv == nil {
				w.rootGrid(o).Move(o.h, pos)
				w.objectTouched(o)
			}
		}
	}
	clear(w.ents.moving[len(kept):])
	w.ents.moving = kept
	for _, id := range ended {
		w.gm.ObjectMoveEnd(id)
	}
}
