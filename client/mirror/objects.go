package mirror

import (
	"cmp"
	"slices"
	"time"

	"dlmp/internal/wire"
)

// Objects (world.md ObjectState). A show creates or replaces the client's
// copy; the client checks the model against its own game build and creates
// nothing that is not an object model (the show is counted and an earlier
// copy under that id goes, its chain waiting without a pose). A hide
// deletes the object with its whole chain, and so does the hide of a parent
// player or vehicle. A broken object stays an object (it moves, carries
// others and streams) but has no collision, and neither has an object on a
// bone.
//
// Movement is uniform and linear in position and in angles, run on the
// client's clock from the packet's arrival: a show with move_ms > 0 moves
// from its pose to its target over move_ms (a repeated show carries the
// time left), and the copy meets the end exactly in the target pose, where
// it stands. Only free objects move: the decoder rejects movement of an
// attached one.

type entityKey struct {
	kind uint8 // wire.AttachPlayer, AttachVehicle or AttachObject
	id   uint32
}

type object struct {
	id       uint32
	model    uint16
	interior int32
	attach   entityKey // kind wire.AttachNone for a free object
	bone     uint8
	broken   bool
	rev      uint32

	pos, rot Vec3 // the pose now: the offset and rotation from the parent when attached

	// A movement in progress (moving ≥ 0).
	from, fromRot Vec3
	to, toRot     Vec3
	start         time.Time
	dur           time.Duration
	moving        int // index in Mirror.moving, −1 when standing
}

func (m *Mirror) applyObject(p *wire.ObjectState) {
	if p.Active == 0 {
		m.deleteChain(p.ObjectID)
		return
	}
	o := m.objects[p.ObjectID]
	if !wire.IsObjectModel(int(p.Model)) {
		m.stats.ObjectsRefused++
		if o != nil {
			m.removeObject(o)
		}
		return
	}
	if o == nil {
		o = &object{id: p.ObjectID, moving: -1}
		m.objects[p.ObjectID] = o
	}
	at := entityKey{p.AttachKind, p.AttachID}
	if at.kind == wire.AttachNone {
		at.id = 0
	}
	if at != o.attach {
		m.unlink(o)
		o.attach = at
		if at.kind != wire.AttachNone {
			m.children[at] = append(m.children[at], o.id)
		}
	}
	o.model, o.interior, o.bone, o.broken, o.rev = p.Model, p.Interior, p.Bone, p.Broken == 1, p.Rev
	o.pos, o.rot = vec32(p.X, p.Y, p.Z), vec32(p.RX, p.RY, p.RZ)
	if p.MoveMS == 0 || at.kind != wire.AttachNone {
		m.stopMoving(o)
		return
	}
	o.from, o.fromRot = o.pos, o.rot
	o.to, o.toRot = vec32(p.ToX, p.ToY, p.ToZ), vec32(p.ToRX, p.ToRY, p.ToRZ)
	o.start, o.dur = m.now, time.Duration(p.MoveMS)*time.Millisecond
	if o.moving < 0 {
		o.moving = len(m.moving)
		m.moving = append(m.moving, o)
	}
}

// advanceObjects runs every movement to now; one that reaches its end
// stands in its target pose.
func (m *Mirror) advanceObjects(now time.Time) {
	for i := len(m.moving) - 1; i >= 0; i-- {
		o := m.moving[i]
		el := now.Sub(o.start)
		if el >= o.dur {
			o.pos, o.rot = o.to, o.toRot
			m.stopMoving(o)
			continue
		}
		f := float64(el) / float64(o.dur)
		o.pos, o.rot = lerp(o.from, o.to, f), lerp(o.fromRot, o.toRot, f)
	}
}

// stopMoving takes o off the moving list, leaving it where it is.
func (m *Mirror) stopMoving(o *object) {
	i := o.moving
	if i < 0 {
		return
	}
	last := len(m.moving) - 1
	m.moving[i] = m.moving[last]
	m.moving[i].moving = i
	m.moving[last] = nil
	m.moving = m.moving[:last]
	o.moving = -1
}

// unlink takes o off its parent's list of children.
func (m *Mirror) unlink(o *object) {
	if o.attach.kind == wire.AttachNone {
		return
	}
	kids := m.children[o.attach]
	if i := slices.Index(kids, o.id); i >= 0 {
		kids = slices.Delete(kids, i, i+1)
	}
	if len(kids) == 0 {
		delete(m.children, o.attach)
	} else {
		m.children[o.attach] = kids
	}
}

// removeObject deletes one object, leaving its children.
func (m *Mirror) removeObject(o *object) {
	m.unlink(o)
	m.stopMoving(o)
	delete(m.objects, o.id)
}

// deleteChain deletes object id and every object attached to it, down the
// chain. It runs on a work list, so a chain of any depth (or an attachment
// cycle a buggy server made) ends.
func (m *Mirror) deleteChain(id uint32) {
	if o := m.objects[id]; o != nil {
		m.removeObject(o)
	}
	m.deleteAttached(entityKey{wire.AttachObject, id})
}

// deleteAttached deletes every object attached to parent, with its chain.
func (m *Mirror) deleteAttached(parent entityKey) {
	work := slices.Clone(m.children[parent])
	delete(m.children, parent)
	for len(work) > 0 {
		id := work[len(work)-1]
		work = work[:len(work)-1]
		if o := m.objects[id]; o != nil {
			m.removeObject(o)
			m.stats.ObjectsOrphaned++
		}
		key := entityKey{wire.AttachObject, id}
		work = append(work, m.children[key]...)
		delete(m.children, key)
	}
}

// Object is the client's copy of an object.
type Object struct {
	ID         uint32
	Model      uint16
	Interior   int32
	AttachKind uint8 // wire.AttachNone, AttachPlayer, AttachVehicle or AttachObject
	AttachID   uint32
	Bone       uint8 // 0 = the root; 1..17 a body bone of the player
	Broken     bool
	Rev        uint32

	Pos, Rot Vec3 // the pose now (rotation in degrees); the offset and rotation from the parent when attached

	Moving            bool
	Target, TargetRot Vec3      // while Moving
	EndsAt            time.Time // while Moving: when it stands in the target pose
}

// Collides reports whether the copy has collision: not when broken, and
// not on a bone.
func (o *Object) Collides() bool { return !o.Broken && o.Bone == 0 }

func (o *object) view() Object {
	v := Object{
		ID: o.id, Model: o.model, Interior: o.interior,
		AttachKind: o.attach.kind, AttachID: o.attach.id, Bone: o.bone,
		Broken: o.broken, Rev: o.rev, Pos: o.pos, Rot: o.rot,
	}
	if o.moving >= 0 {
		v.Moving, v.Target, v.TargetRot, v.EndsAt = true, o.to, o.toRot, o.start.Add(o.dur)
	}
	return v
}

// Object returns the copy of object id, its pose at the mirror's time.
func (m *Mirror) Object(id uint32) (Object, bool) {
	if o := m.objects[id]; o != nil {
		return o.view(), true
	}
	return Object{}, false
}

// Objects returns every copy, by id.
func (m *Mirror) Objects() []Object {
	out := make([]Object, 0, len(m.objects))
	for _, o := range m.objects {
		out = append(out, o.view())
	}
	slices.SortFunc(out, func(a, b Object) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// MovingObjects returns how many objects are moving.
func (m *Mirror) MovingObjects() int { return len(m.moving) }
