package wire

import (
	"math"
	"testing"
)

func validVehicleMove() Packet {
	return &VehicleMove{Seq: 501, VehicleID: 12, X: 1540, Y: -1667.5, Z: 13.1, QX: 0, QY: 0, QZ: 0.38268343, QW: 0.9238795, VX: 15, VY: 0, VZ: 0, Health: 950}
}

func TestVehicleMoveExample(t *testing.T) {
	checkExample(t, "vehicle_move.bin", validVehicleMove())
	checkTruncated(t, validVehicleMove().Append(nil), func() Packet { return new(VehicleMove) })
}

func TestVehicleMoveRules(t *testing.T) {
	nan := float32(math.NaN())
	cases := []ruleCase{
		{"vehicle 1", func(q Packet) { p := q.(*VehicleMove); p.VehicleID = 1 }, ""},
		{"vehicle 0", func(q Packet) { p := q.(*VehicleMove); p.VehicleID = 0 }, "vehicle_id"},
		{"vehicle 1999", func(q Packet) { p := q.(*VehicleMove); p.VehicleID = 1999 }, ""},
		{"vehicle 2000", func(q Packet) { p := q.(*VehicleMove); p.VehicleID = 2000 }, "vehicle_id"},
		{"health 1000", func(q Packet) { p := q.(*VehicleMove); p.Health = 1000 }, ""},
		{"health 1001", func(q Packet) { p := q.(*VehicleMove); p.Health = 1001 }, "health"},
		{"x 6000", func(q Packet) { p := q.(*VehicleMove); p.X = 6000 }, ""},
		{"x 6000.5", func(q Packet) { p := q.(*VehicleMove); p.X = 6000.5 }, "x"},
		{"y -6000", func(q Packet) { p := q.(*VehicleMove); p.Y = -6000 }, ""},
		{"y -6000.5", func(q Packet) { p := q.(*VehicleMove); p.Y = -6000.5 }, "y"},
		{"z -200", func(q Packet) { p := q.(*VehicleMove); p.Z = -200 }, ""},
		{"z -200.5", func(q Packet) { p := q.(*VehicleMove); p.Z = -200.5 }, "z"},
		{"z 4000", func(q Packet) { p := q.(*VehicleMove); p.Z = 4000 }, ""},
		{"z 4000.5", func(q Packet) { p := q.(*VehicleMove); p.Z = 4000.5 }, "z"},
		{"x NaN", func(q Packet) { p := q.(*VehicleMove); p.X = nan }, "x"},
		{"quat norm 0.98", func(q Packet) { p := q.(*VehicleMove); p.QX, p.QY, p.QZ, p.QW = 0, 0, 0, float32(math.Sqrt(0.9801)) }, ""},
		{"quat norm 0.97", func(q Packet) { p := q.(*VehicleMove); p.QX, p.QY, p.QZ, p.QW = 0, 0, 0, float32(math.Sqrt(0.97)) }, "qw"},
		{"quat norm 1.02", func(q Packet) { p := q.(*VehicleMove); p.QX, p.QY, p.QZ, p.QW = 0, 0, 0, float32(math.Sqrt(1.0199)) }, ""},
		{"quat norm 1.03", func(q Packet) { p := q.(*VehicleMove); p.QX, p.QY, p.QZ, p.QW = 0, 0, 0, float32(math.Sqrt(1.03)) }, "qw"},
		{"quat NaN", func(q Packet) { p := q.(*VehicleMove); p.QY = nan }, "qw"},
		{"quat zero", func(q Packet) { p := q.(*VehicleMove); p.QX, p.QY, p.QZ, p.QW = 0, 0, 0, 0 }, "qw"},
		{"vx 200", func(q Packet) { p := q.(*VehicleMove); p.VX = 200 }, ""},
		{"vx 200.5", func(q Packet) { p := q.(*VehicleMove); p.VX = 200.5 }, "vx"},
		{"vy -200", func(q Packet) { p := q.(*VehicleMove); p.VY = -200 }, ""},
		{"vy -200.5", func(q Packet) { p := q.(*VehicleMove); p.VY = -200.5 }, "vy"},
		{"vz NaN", func(q Packet) { p := q.(*VehicleMove); p.VZ = nan }, "vz"},
	}
	checkRules(t, "server", validVehicleMove, send, cases)
	checkRules(t, "client", validVehicleMove, recv, cases)
}

func FuzzVehicleMove(f *testing.F) {
	f.Add(validVehicleMove().Append(nil))
	f.Add(make([]byte, validVehicleMove().Len()))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(VehicleMove) }) })
}

func BenchmarkVehicleMove(b *testing.B) {
	benchCodec(b, validVehicleMove(), func() Packet { return new(VehicleMove) })
}
