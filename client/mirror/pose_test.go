package mirror

import (
	"math"
	"testing"
)

const eps = 1e-9

func near(a, b float64) bool { return math.Abs(a-b) <= eps*max(1, math.Abs(a), math.Abs(b)) }

func nearVec(a, b Vec3) bool { return near(a.X, b.X) && near(a.Y, b.Y) && near(a.Z, b.Z) }

func checkVec(t *testing.T, what string, got, want Vec3) {
	t.Helper()
	if !nearVec(got, want) {
		t.Errorf("%s = %+v, want %+v", what, got, want)
	}
}

func TestRotations(t *testing.T) {
	tests := []struct {
		name string
		rot  Mat3
		in   Vec3
		want Vec3
	}{
		{"Rz(90) turns x to y", RotZ(90), Vec3{1, 0, 0}, Vec3{0, 1, 0}},
		{"Rx(90) turns y to z", RotX(90), Vec3{0, 1, 0}, Vec3{0, 0, 1}},
		{"Ry(90) turns z to x", RotY(90), Vec3{0, 0, 1}, Vec3{1, 0, 0}},
		{"Rz(-90) turns x to -y", RotZ(-90), Vec3{1, 0, 0}, Vec3{0, -1, 0}},
		// Rz·Rx·Ry: Ry first. Ry(90) z → x, Rx(90) keeps x. In the other
		// order (Ry·Rx) z would go to −y.
		{"Euler applies Ry first", Euler(Vec3{90, 90, 0}), Vec3{0, 0, 1}, Vec3{1, 0, 0}},
		// Rx(90) y → z, then Rz(90) keeps z; Rx·Rz would give −x.
		{"Euler applies Rz last", Euler(Vec3{90, 0, 90}), Vec3{0, 1, 0}, Vec3{0, 0, 1}},
		{"Euler of rz alone is Rz", Euler(Vec3{0, 0, 30}), Vec3{2, 0, 0}, Vec3{2 * math.Cos(math.Pi/6), 2 * math.Sin(math.Pi/6), 0}},
		{"quaternion of 90° about z", Quat(0, 0, math.Sqrt2/2, math.Sqrt2/2), Vec3{1, 0, 0}, Vec3{0, 1, 0}},
		{"quaternion of 90° about x", Quat(math.Sqrt2/2, 0, 0, math.Sqrt2/2), Vec3{0, 1, 0}, Vec3{0, 0, 1}},
		{"quaternion not quite unit", Quat(0, 0, 0.7, 0.7), Vec3{1, 0, 0}, Vec3{0, 1, 0}},
		{"zero quaternion is identity", Quat(0, 0, 0, 0), Vec3{1, 2, 3}, Vec3{1, 2, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkVec(t, "rotated", tt.rot.Apply(tt.in), tt.want) })
	}
}

func TestAnglesRoundTrip(t *testing.T) {
	for _, a := range []Vec3{
		{0, 0, 0}, {10, 20, 30}, {-45, 170, -120}, {89, -30, 60}, {-60, 0, 180}, {0, -179, 1},
	} {
		got := Euler(a).Angles()
		if !nearVec(Euler(got).Apply(Vec3{1, 2, 3}), Euler(a).Apply(Vec3{1, 2, 3})) {
			t.Errorf("Euler(%v).Angles() = %v: not the same rotation", a, got)
		}
		checkVec(t, "Angles", got, a)
	}
	// Gimbal lock: rx = 90 folds ry into rz.
	got := Euler(Vec3{90, 30, 40}).Angles()
	if !nearVec(Euler(got).Apply(Vec3{1, 2, 3}), Euler(Vec3{90, 30, 40}).Apply(Vec3{1, 2, 3})) {
		t.Errorf("gimbal lock: Angles() = %v is not the same rotation", got)
	}
	if !near(got.Y, 0) || !near(got.X, 90) {
		t.Errorf("gimbal lock: Angles() = %v, want rx 90 and ry 0", got)
	}
}

func TestPoseMul(t *testing.T) {
	parent := Pose{Pos: Vec3{10, 20, 30}, Rot: RotZ(90)}
	got := parent.Mul(Vec3{1, 0, 0}, RotZ(90))
	checkVec(t, "child position", got.Pos, Vec3{10, 21, 30})
	checkVec(t, "child x axis", got.Rot.Apply(Vec3{1, 0, 0}), Vec3{-1, 0, 0})
}
