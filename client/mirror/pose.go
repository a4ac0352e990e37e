package mirror

import "math"

// Pose math for world.md's objects: an object's rotation is Rz(rz)·Rx(rx)·Ry(ry)
// in degrees, and the world pose of an attached object is its parent's pose
// multiplied by its own offset and rotation. The rotations are right-handed
// (a positive angle turns counter-clockwise looking down the axis), the
// game's convention, and the math runs in float64: the wire's f32 values
// convert exactly.

// Vec3 is a point or an offset in meters, in the game's world frame
// (z up). The zero value is the origin.
type Vec3 struct{ X, Y, Z float64 }

// Add returns v + w.
func (v Vec3) Add(w Vec3) Vec3 { return Vec3{v.X + w.X, v.Y + w.Y, v.Z + w.Z} }

// Sub returns v − w.
func (v Vec3) Sub(w Vec3) Vec3 { return Vec3{v.X - w.X, v.Y - w.Y, v.Z - w.Z} }

// Scale returns v·k.
func (v Vec3) Scale(k float64) Vec3 { return Vec3{v.X * k, v.Y * k, v.Z * k} }

// Dist2 returns the squared distance between v and w.
func (v Vec3) Dist2(w Vec3) float64 {
	d := v.Sub(w)
	return d.X*d.X + d.Y*d.Y + d.Z*d.Z
}

// lerp returns a + (b − a)·t.
func lerp(a, b Vec3, t float64) Vec3 { return a.Add(b.Sub(a).Scale(t)) }

// vec32 converts three wire floats.
func vec32(x, y, z float32) Vec3 { return Vec3{float64(x), float64(y), float64(z)} }

// Mat3 is a rotation matrix, row-major: Mat3[r][c]. The zero value is not a
// rotation; Identity is.
type Mat3 [3][3]float64

// Identity is the rotation that turns nothing.
var Identity = Mat3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}

// Mul returns m·n.
func (m Mat3) Mul(n Mat3) Mat3 {
	var r Mat3
	for i := range 3 {
		for j := range 3 {
			r[i][j] = m[i][0]*n[0][j] + m[i][1]*n[1][j] + m[i][2]*n[2][j]
		}
	}
	return r
}

// Apply returns m·v.
func (m Mat3) Apply(v Vec3) Vec3 {
	return Vec3{
		m[0][0]*v.X + m[0][1]*v.Y + m[0][2]*v.Z,
		m[1][0]*v.X + m[1][1]*v.Y + m[1][2]*v.Z,
		m[2][0]*v.X + m[2][1]*v.Y + m[2][2]*v.Z,
	}
}

func sincos(deg float64) (s, c float64) { return math.Sincos(deg * math.Pi / 180) }

// RotX is the rotation by deg degrees about the x axis.
func RotX(deg float64) Mat3 {
	s, c := sincos(deg)
	return Mat3{{1, 0, 0}, {0, c, -s}, {0, s, c}}
}

// RotY is the rotation by deg degrees about the y axis.
func RotY(deg float64) Mat3 {
	s, c := sincos(deg)
	return Mat3{{c, 0, s}, {0, 1, 0}, {-s, 0, c}}
}

// RotZ is the rotation by deg degrees about the z axis (a heading).
func RotZ(deg float64) Mat3 {
	s, c := sincos(deg)
	return Mat3{{c, -s, 0}, {s, c, 0}, {0, 0, 1}}
}

// Euler returns the object rotation of world.md, Rz(r.Z)·Rx(r.X)·Ry(r.Y),
// for angles in degrees.
func Euler(r Vec3) Mat3 { return RotZ(r.Z).Mul(RotX(r.X)).Mul(RotY(r.Y)) }

// Angles returns the angles (rx, ry, rz) in degrees with Euler(angles) = m:
// rx in [−90, 90], ry and rz in (−180, 180]. At rx = ±90 (gimbal lock) it
// puts the whole turn about z into rz and returns ry = 0.
func (m Mat3) Angles() Vec3 {
	const deg = 180 / math.Pi
	sx := max(-1, min(1, m[2][1]))
	x := math.Asin(sx)
	if math.Abs(sx) > 1-1e-12 {
		return Vec3{x * deg, 0, math.Atan2(m[1][0], m[0][0]) * deg}
	}
	return Vec3{x * deg, math.Atan2(-m[2][0], m[2][2]) * deg, math.Atan2(-m[0][1], m[1][1]) * deg}
}

// Quat returns the rotation of the unit quaternion (x, y, z, w), as
// VehicleShow and VehicleMove carry it. A quaternion that is not quite unit
// (the wire accepts a squared norm of 0.98..1.02) is normalized first.
func Quat(x, y, z, w float64) Mat3 {
	n := x*x + y*y + z*z + w*w
	if n == 0 {
		return Identity
	}
	s := 2 / n
	return Mat3{
		{1 - s*(y*y+z*z), s * (x*y - z*w), s * (x*z + y*w)},
		{s * (x*y + z*w), 1 - s*(x*x+z*z), s * (y*z - x*w)},
		{s * (x*z - y*w), s * (y*z + x*w), 1 - s*(x*x+y*y)},
	}
}

// Pose is a position and a rotation in the world frame.
type Pose struct {
	Pos Vec3
	Rot Mat3
}

// Mul returns the pose of a child at offset off and rotation rot relative
// to p: position p.Pos + p.Rot·off, rotation p.Rot·rot.
func (p Pose) Mul(off Vec3, rot Mat3) Pose {
	return Pose{Pos: p.Pos.Add(p.Rot.Apply(off)), Rot: p.Rot.Mul(rot)}
}
