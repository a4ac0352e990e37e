package pose

import (
	"math"
	"testing"
)

const eps = 1e-9

func near(a, b float64) bool { return math.Abs(a-b) <= eps }

func nearVec(a, b Vec) bool { return near(a.X, b.X) && near(a.Y, b.Y) && near(a.Z, b.Z) }

func nearMat(a, b Mat) bool {
	for i := range 3 {
		for j := range 3 {
			if !near(a[i][j], b[i][j]) {
				return false
			}
		}
	}
	return true
}

// TestRotationOrder: each axis alone, and pairs whose result tells the
// order Rz·Rx·Ry from any other (values worked out by hand).
func TestRotationOrder(t *testing.T) {
	tests := []struct {
		name string
		a    Angles
		in   Vec
		want Vec
	}{
		{"rz 90 turns x to y", Angles{RZ: 90}, Vec{1, 0, 0}, Vec{0, 1, 0}},
		{"rx 90 turns y to z", Angles{RX: 90}, Vec{0, 1, 0}, Vec{0, 0, 1}},
		{"ry 90 turns z to x", Angles{RY: 90}, Vec{0, 0, 1}, Vec{1, 0, 0}},
		{"rz -90 turns x to -y", Angles{RZ: -90}, Vec{1, 0, 0}, Vec{0, -1, 0}},
		{"rz 450 is rz 90", Angles{RZ: 450}, Vec{1, 0, 0}, Vec{0, 1, 0}},
		// Rx before Rz: y → z (Rx) → z (Rz). Rz first would give -x.
		{"rx then rz", Angles{RX: 90, RZ: 90}, Vec{0, 1, 0}, Vec{0, 0, 1}},
		// Ry before Rx: z → x (Ry) → x (Rx). Rx first would give -y.
		{"ry then rx", Angles{RX: 90, RY: 90}, Vec{0, 0, 1}, Vec{1, 0, 0}},
		// Ry before Rz: z → x (Ry) → y (Rz).
		{"ry then rz", Angles{RY: 90, RZ: 90}, Vec{0, 0, 1}, Vec{0, 1, 0}},
		// 30° about z: (cos 30, sin 30, 0).
		{"rz 30", Angles{RZ: 30}, Vec{1, 0, 0}, Vec{math.Sqrt(3) / 2, 0.5, 0}},
		// rx 60 then rz 30 on y: Rx gives (0, 1/2, √3/2), Rz gives (−1/4, √3/4, √3/2).
		{"rx 60 rz 30", Angles{RX: 60, RZ: 30}, Vec{0, 1, 0}, Vec{-0.25, math.Sqrt(3) / 4, math.Sqrt(3) / 2}},
	}
	for _, tt := range tests {
		if got := tt.a.Matrix().Apply(tt.in); !nearVec(got, tt.want) {
			t.Errorf("%s: %+v·%v = %v, want %v", tt.name, tt.a, tt.in, got, tt.want)
		}
	}
}

func TestMatrixIsRotation(t *testing.T) {
	for _, a := range []Angles{{10, 20, 30}, {-75, 170, -3000}, {89, -89, 1}, {3600, -3600, 45}} {
		m := a.Matrix()
		var mt Mat
		for i := range 3 {
			for j := range 3 {
				mt[i][j] = m[j][i]
			}
		}
		if got := m.Mul(mt); !nearMat(got, Identity) {
			t.Errorf("%+v: M·Mᵀ = %v, want identity", a, got)
		}
	}
}

func TestAnglesRoundTrip(t *testing.T) {
	for _, a := range []Angles{{0, 0, 0}, {10, 20, 30}, {-45, 170, -120}, {89.5, -179, 179}, {-30, 0, 180}} {
		got := a.Matrix().Angles()
		if !near(got.RX, a.RX) || !near(got.RY, a.RY) || !near(got.RZ, a.RZ) {
			t.Errorf("Angles of %+v = %+v", a, got)
		}
	}
	// Beyond ±180 the angles come back normalized, to the same matrix.
	a := Angles{RX: 370, RY: -200, RZ: 725}
	if got := a.Matrix().Angles(); !nearMat(got.Matrix(), a.Matrix()) || !near(got.RX, 10) || !near(got.RZ, 5) {
		t.Errorf("Angles of %+v = %+v, want rx 10, rz 5 and the same matrix", a, got)
	}
}

func TestAnglesGimbalLock(t *testing.T) {
	tests := []struct {
		a    Angles
		want Angles
	}{
		{Angles{RX: 90, RY: 30, RZ: 20}, Angles{RX: 90, RZ: 50}},    // rz + ry
		{Angles{RX: -90, RY: 30, RZ: 20}, Angles{RX: -90, RZ: -10}}, // rz − ry
	}
	for _, tt := range tests {
		got := tt.a.Matrix().Angles()
		if !near(got.RX, tt.want.RX) || !near(got.RY, tt.want.RY) || !near(got.RZ, tt.want.RZ) {
			t.Errorf("Angles of %+v = %+v, want %+v", tt.a, got, tt.want)
		}
		if !nearMat(got.Matrix(), tt.a.Matrix()) {
			t.Errorf("%+v: angles %+v give another matrix", tt.a, got)
		}
	}
}

func TestAttach(t *testing.T) {
	car := Of(Vec{100, 200, 10}, Angles{RZ: 90})
	tests := []struct {
		name   string
		parent Pose
		child  Pose
		pos    Vec
		rot    Angles
	}{
		// Rz(90) turns the car's +x to the world's +y.
		{"offset turned with the parent", car, Of(Vec{1, 0, 0.5}, Angles{}), Vec{100, 201, 10.5}, Angles{RZ: 90}},
		{"rotations add about one axis", car, Of(Vec{0, 2, 0}, Angles{RZ: 45}), Vec{98, 200, 10}, Angles{RZ: 135}},
		// Parent pitched: Rx(90) turns the child's +y offset to +z.
		{"pitched parent", Of(Vec{0, 0, 0}, Angles{RX: 90}), Of(Vec{0, 3, 0}, Angles{}), Vec{0, 0, 3}, Angles{RX: 90}},
		// A player counts by heading only: heading 180 turns +x to −x; Rz(180)·Rx(10).
		{"player heading", Player(Vec{5, 5, 5}, 180), Of(Vec{1, 0, 1}, Angles{RX: 10}), Vec{4, 5, 6}, Angles{RX: 10, RZ: 180}},
	}
	for _, tt := range tests {
		got := tt.parent.Attach(tt.child)
		if !nearVec(got.Pos, tt.pos) {
			t.Errorf("%s: position %v, want %v", tt.name, got.Pos, tt.pos)
		}
		if !nearMat(got.Rot, tt.rot.Matrix()) {
			t.Errorf("%s: rotation %+v, want %+v", tt.name, got.Rot.Angles(), tt.rot)
		}
	}
}

// TestAttachChain: a lamp on a box on the car; attaching along the chain
// equals attaching to the composed parent.
func TestAttachChain(t *testing.T) {
	car := Of(Vec{100, 200, 10}, Angles{RZ: 90})
	box := Of(Vec{0, -2, 1}, Angles{RZ: 90})
	lamp := Of(Vec{1, 0, 0.5}, Angles{RX: 30})
	got := car.Attach(box).Attach(lamp)
	// box in world: offset (0,−2,1) turned by 90 → (2, 0, 1): at (102, 200, 11), facing rz 180.
	// lamp: offset (1,0,0.5) turned by 180 → (−1, 0, 0.5): at (101, 200, 11.5).
	if want := (Vec{101, 200, 11.5}); !nearVec(got.Pos, want) {
		t.Errorf("lamp at %v, want %v", got.Pos, want)
	}
	if want := (Angles{RX: 30, RZ: 180}).Matrix(); !nearMat(got.Rot, want) {
		t.Errorf("lamp turned %+v, want rx 30, rz 180", got.Rot.Angles())
	}
	if assoc := car.Attach(box.Attach(lamp)); !nearVec(assoc.Pos, got.Pos) || !nearMat(assoc.Rot, got.Rot) {
		t.Errorf("chain is not associative: %v vs %v", assoc, got)
	}
}

func TestPlayerHeading(t *testing.T) {
	p := Player(Vec{1, 2, 3}, 30)
	if want := (Angles{RZ: 30}).Matrix(); !nearMat(p.Rot, want) || p.Pos != (Vec{1, 2, 3}) {
		t.Errorf("Player(…, 30) = %+v", p)
	}
}
