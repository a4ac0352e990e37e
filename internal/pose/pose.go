// Package pose is the math of object poses in world.md (ObjectState): an
// object's rotation Rz(rz)·Rx(rx)·Ry(ry) from angles in degrees, the world
// pose of an attached object as its parent's pose multiplied by its own
// offset and rotation (of a parent player only the heading counts), and
// uniform linear movement in position and angles.
//
// Vectors are column vectors and rotations are active: a rotation matrix
// turns a point of the object's frame into the parent's (or the world's)
// frame. Everything is a pure function of values; nothing here holds state,
// so any goroutine may call it.
package pose

import "math"

// Vec is a point or an offset in meters.
type Vec struct{ X, Y, Z float64 }

// Add returns v + w.
func (v Vec) Add(w Vec) Vec { return Vec{v.X + w.X, v.Y + w.Y, v.Z + w.Z} }

// Sub returns v − w.
func (v Vec) Sub(w Vec) Vec { return Vec{v.X - w.X, v.Y - w.Y, v.Z - w.Z} }

// Scale returns v · k.
func (v Vec) Scale(k float64) Vec { return Vec{v.X * k, v.Y * k, v.Z * k} }

// Angles are an object's rotation in degrees, as ObjectState carries them
// (rx, ry, rz): applied as Rz(rz)·Rx(rx)·Ry(ry), so Ry first.
type Angles struct{ RX, RY, RZ float64 }

// Mat is a 3×3 rotation matrix, row by row. The zero Mat is not a rotation;
// Identity is.
type Mat [3][3]float64

// Identity is the rotation that changes nothing.
var Identity = Mat{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}

// Matrix returns Rz(rz)·Rx(rx)·Ry(ry).
func (a Angles) Matrix() Mat {
	sx, cx := sincos(a.RX)
	sy, cy := sincos(a.RY)
	sz, cz := sincos(a.RZ)
	return Mat{
		{cz*cy - sz*sx*sy, -sz * cx, cz*sy + sz*sx*cy},
		{sz*cy + cz*sx*sy, cz * cx, sz*sy - cz*sx*cy},
		{-cx * sy, sx, cx * cy},
	}
}

// sincos of an angle in degrees, exact at multiples of 90 so that quarter
// turns give clean matrices.
func sincos(deg float64) (s, c float64) {
	r := math.Mod(deg, 360)
	if r < 0 {
		r += 360
	}
	switch r {
	case 0:
		return 0, 1
	case 90:
		return 1, 0
	case 180:
		return 0, -1
	case 270:
		return -1, 0
	}
	return math.Sincos(r * math.Pi / 180)
}

// Angles returns angles whose Matrix is m, for a rotation matrix m: rx in
// [−90, 90], ry and rz in [−180, 180]. At rx = ±90 (gimbal lock) only
// rz + ry (at +90) or rz − ry (at −90) is defined: ry is 0 and rz holds it.
func (m Mat) Angles() Angles {
	sx := max(-1, min(1, m[2][1]))
	rx := math.Asin(sx)
	if math.Abs(sx) > 1-1e-12 {
		// cx = 0: column 0 is (cos(rz ± ry), sin(rz ± ry), 0); take ry = 0.
		return Angles{RX: deg(rx), RZ: deg(math.Atan2(m[1][0], m[0][0]))}
	}
	return Angles{RX: deg(rx), RY: deg(math.Atan2(-m[2][0], m[2][2])), RZ: deg(math.Atan2(-m[0][1], m[1][1]))}
}

func deg(rad float64) float64 { return rad * 180 / math.Pi }

// Mul returns m·n: n applied first, then m.
func (m Mat) Mul(n Mat) Mat {
	var r Mat
	for i := range 3 {
		for j := range 3 {
			r[i][j] = m[i][0]*n[0][j] + m[i][1]*n[1][j] + m[i][2]*n[2][j]
		}
	}
	return r
}

// Apply returns m·v.
func (m Mat) Apply(v Vec) Vec {
	return Vec{
		m[0][0]*v.X + m[0][1]*v.Y + m[0][2]*v.Z,
		m[1][0]*v.X + m[1][1]*v.Y + m[1][2]*v.Z,
		m[2][0]*v.X + m[2][1]*v.Y + m[2][2]*v.Z,
	}
}

// Pose is a position and a rotation: where an object stands and how it is
// turned, in the world or in its parent's frame.
type Pose struct {
	Pos Vec
	Rot Mat
}

// Of returns the pose at pos turned by angles a.
func Of(pos Vec, a Angles) Pose { return Pose{pos, a.Matrix()} }

// Player returns a player's pose as a parent: its position and only its
// heading (degrees about z), whatever the body's pitch and roll.
func Player(pos Vec, heading float64) Pose { return Of(pos, Angles{RZ: heading}) }

// Attach returns the world pose of a child whose offset and rotation
// relative to the parent p are child: p multiplied by child. For a chain,
// attach from the root outwards.
func (p Pose) Attach(child Pose) Pose {
	return Pose{Pos: p.Pos.Add(p.Rot.Apply(child.Pos)), Rot: p.Rot.Mul(child.Rot)}
}
