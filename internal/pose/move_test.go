package pose

import (
	"testing"
	"time"
)

func TestMoveAt(t *testing.T) {
	m := Move{
		From: Vec{0, 0, 0}, To: Vec{10, -20, 30},
		FromRot: Angles{0, 90, 350}, ToRot: Angles{40, -90, 370},
		Duration: 4 * time.Second,
	}
	tests := []struct {
		at   time.Duration
		pos  Vec
		rot  Angles
		left time.Duration
	}{
		{-time.Second, Vec{0, 0, 0}, Angles{0, 90, 350}, 4 * time.Second},
		{0, Vec{0, 0, 0}, Angles{0, 90, 350}, 4 * time.Second},
		{time.Second, Vec{2.5, -5, 7.5}, Angles{10, 45, 355}, 3 * time.Second},
		{2 * time.Second, Vec{5, -10, 15}, Angles{20, 0, 360}, 2 * time.Second},
		{3 * time.Second, Vec{7.5, -15, 22.5}, Angles{30, -45, 365}, time.Second},
		{4 * time.Second, Vec{10, -20, 30}, Angles{40, -90, 370}, 0},
		{time.Hour, Vec{10, -20, 30}, Angles{40, -90, 370}, 0},
	}
	for _, tt := range tests {
		pos, rot := m.At(tt.at)
		if !nearVec(pos, tt.pos) || !near(rot.RX, tt.rot.RX) || !near(rot.RY, tt.rot.RY) || !near(rot.RZ, tt.rot.RZ) {
			t.Errorf("At(%v) = %v %+v, want %v %+v", tt.at, pos, rot, tt.pos, tt.rot)
		}
		if got := m.Left(tt.at); got != tt.left {
			t.Errorf("Left(%v) = %v, want %v", tt.at, got, tt.left)
		}
	}
}

// TestMoveResumed: a repeated show carries the pose now and the time left;
// the resumed movement runs through the same poses.
func TestMoveResumed(t *testing.T) {
	m := Move{From: Vec{0, 0, 0}, To: Vec{8, 0, 0}, ToRot: Angles{RZ: 80}, Duration: 8 * time.Second}
	pos, rot := m.At(2 * time.Second)
	r := Move{From: pos, To: m.To, FromRot: rot, ToRot: m.ToRot, Duration: m.Left(2 * time.Second)}
	for _, d := range []time.Duration{0, time.Second, 3 * time.Second, 6 * time.Second} {
		p1, r1 := m.At(2*time.Second + d)
		p2, r2 := r.At(d)
		if !nearVec(p1, p2) || !near(r1.RZ, r2.RZ) {
			t.Errorf("after %v more: resumed %v %+v, original %v %+v", d, p2, r2, p1, r1)
		}
	}
}

func TestMoveStanding(t *testing.T) {
	m := Move{From: Vec{1, 1, 1}, To: Vec{2, 2, 2}, ToRot: Angles{RX: 5}}
	for _, at := range []time.Duration{-time.Second, 0, time.Second} {
		if pos, rot := m.At(at); pos != m.To || rot != m.ToRot {
			t.Errorf("Duration 0, At(%v) = %v %+v, want the target", at, pos, rot)
		}
	}
}
