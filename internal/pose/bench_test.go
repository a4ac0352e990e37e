package pose

import (
	"testing"
	"time"
)

var (
	sinkPose   Pose
	sinkVec    Vec
	sinkAngles Angles
)

// BenchmarkPose: building one rotation matrix is the baseline; attaching a
// child, a three-link chain, reading world angles back, and one movement step
// are measured beside it.
func BenchmarkPose(b *testing.B) {
	a := Angles{RX: 12.5, RY: -33, RZ: 271}
	car := Of(Vec{100, 200, 10}, Angles{RZ: 37})
	box := Of(Vec{0, -2, 1}, Angles{RZ: 90})
	lamp := Of(Vec{1, 0, 0.5}, a)
	m := Move{From: Vec{1, 2, 3}, To: Vec{10, 20, 30}, ToRot: a, Duration: 4 * time.Second}
	b.Run("matrix", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkPose.Rot = a.Matrix()
		}
	})
	b.Run("attach", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkPose = car.Attach(lamp)
		}
	})
	b.Run("chain3", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkPose = car.Attach(box).Attach(lamp)
		}
	})
	b.Run("angles", func(b *testing.B) {
		rot := car.Attach(lamp).Rot
		b.ReportAllocs()
		for b.Loop() {
			sinkAngles = rot.Angles()
		}
	})
	b.Run("move", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkVec, sinkAngles = m.At(1500 * time.Millisecond)
		}
	})
}
