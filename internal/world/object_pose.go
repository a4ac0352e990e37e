package world

import (
	"dlmp/internal/grid"
	"dlmp/internal/pose"
)

// Pose math of attached objects (world.md ObjectState): the world pose of an
// attached object is its parent's pose times its own offset and rotation;
// of a parent player only the heading counts, and an object on a bone
// stands at the player's root as far as the server knows.

// worldPose returns the object's pose in the world: its parent's pose
// times its own.
func (w *World) worldPose(o *Object) pose.Pose {
	pos, rot := w.currentPose(o)
	own := pose.Of(vec64(pos), rot64(rot))
	switch o.kind {
	case KindPlayer:
		pl := w.Player(uint16(o.parentID))
		root := pose.Player(vec64(pl.pos), float64(pl.ent.last.Heading))
		if o.bone != 0 {
			return root // the server treats an object on a bone as standing at the root
		}
		return root.Attach(own)
	case KindVehicle:
		v := w.Vehicle(uint16(o.parentID))
		return pose.Pose{Pos: vec64(v.pos), Rot: v.rot.matrix()}.Attach(own)
	case KindObject:
		return w.worldPose(o.parent).Attach(own)
	}
	return own
}

// WorldPose returns where the object stands in the world (see
// [World.DetachObject] for an object on a bone).
func (w *World) WorldPose(id uint32) (grid.Vec, Rot, bool) {
	o := w.Object(id)
	if o == nil {
		return grid.Vec{}, Rot{}, false
	}
	wp := w.worldPose(o)
	return toGrid(wp.Pos), toRot(wp.Rot.Angles()), true
}

// inPlace returns the offset and relative rotation that keep o where it
// stands once attached as ap says: parent⁻¹ · world.
func (w *World) inPlace(o *Object, ap AttachParams) (grid.Vec, Rot) {
	var pp pose.Pose
	switch ap.Kind {
	case KindPlayer:
		pl := w.Player(uint16(ap.ID))
		pp = pose.Player(vec64(pl.pos), float64(pl.ent.last.Heading))
	case KindVehicle:
		v := w.Vehicle(uint16(ap.ID))
		pp = pose.Pose{Pos: vec64(v.pos), Rot: v.rot.matrix()}
	case KindObject:
		pp = w.worldPose(w.Object(ap.ID))
	}
	wp := w.worldPose(o)
	inv := transpose(pp.Rot)
	return toGrid(inv.Apply(wp.Pos.Sub(pp.Pos))), toRot(inv.Mul(wp.Rot).Angles())
}

// ObjectState's pose fields are float32; package pose computes in float64.
func vec64(v grid.Vec) pose.Vec { return pose.Vec{X: float64(v.X), Y: float64(v.Y), Z: float64(v.Z)} }
func rot64(r Rot) pose.Angles {
	return pose.Angles{RX: float64(r.X), RY: float64(r.Y), RZ: float64(r.Z)}
}
func toGrid(v pose.Vec) grid.Vec { return grid.Vec{X: float32(v.X), Y: float32(v.Y), Z: float32(v.Z)} }
func toRot(a pose.Angles) Rot    { return Rot{float32(a.RX), float32(a.RY), float32(a.RZ)} }
func transpose(m pose.Mat) pose.Mat {
	return pose.Mat{{m[0][0], m[1][0], m[2][0]}, {m[0][1], m[1][1], m[2][1]}, {m[0][2], m[1][2], m[2][2]}}
}

// matrix returns the rotation matrix of the (normalized) quaternion.
func (q Quat) matrix() pose.Mat {
	n := q.normalized()
	x, y, z, s := float64(n.X), float64(n.Y), float64(n.Z), float64(n.W)
	return pose.Mat{
		{1 - 2*(y*y+z*z), 2 * (x*y - s*z), 2 * (x*z + s*y)},
		{2 * (x*y + s*z), 1 - 2*(x*x+z*z), 2 * (y*z - s*x)},
		{2 * (x*z - s*y), 2 * (y*z + s*x), 1 - 2*(x*x+y*y)},
	}
}
