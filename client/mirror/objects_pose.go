package mirror

import "dlmp/internal/wire"

// World poses of objects (world.md ObjectState). A free object stands at its
// position with the rotation Rz(rz)·Rx(rx)·Ry(ry). An attached object's
// world pose is its parent's pose multiplied by its own offset and
// rotation: an object parent's world pose, a vehicle's position and
// rotation, and of a player only the position and the heading. An object on
// a bone stands at the player's root for this purpose: only the game knows
// the bone's pose, so its offset and rotation (in the bone's frame) are not
// applied. A parent that is not shown, or has no position yet, leaves the
// chain below it without a pose.

// MaxChainDepth is the longest chain of attachments the mirror follows;
// past it (or around an attachment cycle) an object has no pose.
const MaxChainDepth = 64

// ObjectPose returns the world pose of object id at the mirror's time; ok is
// false when the object is not held or its chain does not reach a shown
// parent.
func (m *Mirror) ObjectPose(id uint32) (Pose, bool) {
	o := m.objects[id]
	if o == nil {
		return Pose{}, false
	}
	return m.objectPose(o, 0)
}

func (m *Mirror) objectPose(o *object, depth int) (Pose, bool) {
	if o.attach.kind == wire.AttachNone {
		return Pose{Pos: o.pos, Rot: Euler(o.rot)}, true
	}
	if depth >= MaxChainDepth {
		return Pose{}, false
	}
	var parent Pose
	var ok bool
	if o.attach.kind == wire.AttachObject {
		if po := m.objects[o.attach.id]; po != nil {
			parent, ok = m.objectPose(po, depth+1)
		}
	} else {
		parent, ok = m.entityPose(o.attach.kind, o.attach.id)
	}
	if !ok {
		return Pose{}, false
	}
	if o.bone != 0 {
		return parent, true
	}
	return parent.Mul(o.pos, Euler(o.rot)), true
}
