package wire

import (
	"math"
	"testing"
)

func validVehicleShow() Packet {
	return &VehicleShow{EventID: 13, VehicleID: 12, Active: 1, Model: 596, Color1: 0, Color2: 1, X: 1535.8, Y: -1667.5, Z: 13.1, QX: 0, QY: 0, QZ: 0, QW: 1, Health: 1000}
}

func TestVehicleShowExample(t *testing.T) {
	checkExample(t, "vehicle_show.bin", validVehicleShow())
	checkTruncated(t, validVehicleShow().Append(nil), func() Packet { return new(VehicleShow) })
}

func TestVehicleShowRules(t *testing.T) {
	nan := float32(math.NaN())
	cases := []ruleCase{
		{"vehicle 1", func(q Packet) { p := q.(*VehicleShow); p.VehicleID = 1 }, ""},
		{"vehicle 0", func(q Packet) { p := q.(*VehicleShow); p.VehicleID = 0 }, "vehicle_id"},
		{"vehicle 1999", func(q Packet) { p := q.(*VehicleShow); p.VehicleID = 1999 }, ""},
		{"vehicle 2000", func(q Packet) { p := q.(*VehicleShow); p.VehicleID = 2000 }, "vehicle_id"},
		{"active 2", func(q Packet) { p := q.(*VehicleShow); p.Active = 2 }, "active"},
		{"hide ignores the rest", func(q Packet) { p := q.(*VehicleShow); p.Active, p.Model, p.X, p.QW, p.Health = 0, 0, nan, 0, 0xFFFF }, ""},
		{"hide of vehicle 0", func(q Packet) { p := q.(*VehicleShow); p.Active, p.VehicleID = 0, 0 }, "vehicle_id"},
		{"model 400", func(q Packet) { p := q.(*VehicleShow); p.Model = 400 }, ""},
		{"model 399", func(q Packet) { p := q.(*VehicleShow); p.Model = 399 }, "model"},
		{"model 611", func(q Packet) { p := q.(*VehicleShow); p.Model = 611 }, ""},
		{"model 612", func(q Packet) { p := q.(*VehicleShow); p.Model = 612 }, "model"},
		{"health 0", func(q Packet) { p := q.(*VehicleShow); p.Health = 0 }, ""},
		{"health 1001", func(q Packet) { p := q.(*VehicleShow); p.Health = 1001 }, "health"},
		{"any colors", func(q Packet) { p := q.(*VehicleShow); p.Color1, p.Color2 = 255, 255 }, ""},
		{"x 6000", func(q Packet) { p := q.(*VehicleShow); p.X = 6000 }, ""},
		{"x 6000.5", func(q Packet) { p := q.(*VehicleShow); p.X = 6000.5 }, "x"},
		{"y -6000", func(q Packet) { p := q.(*VehicleShow); p.Y = -6000 }, ""},
		{"y -6000.5", func(q Packet) { p := q.(*VehicleShow); p.Y = -6000.5 }, "y"},
		{"z -200", func(q Packet) { p := q.(*VehicleShow); p.Z = -200 }, ""},
		{"z -200.5", func(q Packet) { p := q.(*VehicleShow); p.Z = -200.5 }, "z"},
		{"z 4000", func(q Packet) { p := q.(*VehicleShow); p.Z = 4000 }, ""},
		{"z 4000.5", func(q Packet) { p := q.(*VehicleShow); p.Z = 4000.5 }, "z"},
		{"x NaN", func(q Packet) { p := q.(*VehicleShow); p.X = nan }, "x"},
		{"quat norm 0.98", func(q Packet) { p := q.(*VehicleShow); p.QX, p.QY, p.QZ, p.QW = 0, 0, 0, float32(math.Sqrt(0.9801)) }, ""},
		{"quat norm 0.97", func(q Packet) { p := q.(*VehicleShow); p.QX, p.QY, p.QZ, p.QW = 0, 0, 0, float32(math.Sqrt(0.97)) }, "qw"},
		{"quat norm 1.02", func(q Packet) { p := q.(*VehicleShow); p.QX, p.QY, p.QZ, p.QW = 0, 0, 0, float32(math.Sqrt(1.0199)) }, ""},
		{"quat norm 1.03", func(q Packet) { p := q.(*VehicleShow); p.QX, p.QY, p.QZ, p.QW = 0, 0, 0, float32(math.Sqrt(1.03)) }, "qw"},
		{"quat NaN", func(q Packet) { p := q.(*VehicleShow); p.QY = nan }, "qw"},
		{"quat zero", func(q Packet) { p := q.(*VehicleShow); p.QX, p.QY, p.QZ, p.QW = 0, 0, 0, 0 }, "qw"},
	}
	checkRules(t, "server", validVehicleShow, send, cases)
	checkRules(t, "client", validVehicleShow, recv, cases)
}

func FuzzVehicleShow(f *testing.F) {
	f.Add(validVehicleShow().Append(nil))
	f.Add(make([]byte, validVehicleShow().Len()))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(VehicleShow) }) })
}

func BenchmarkVehicleShow(b *testing.B) {
	benchCodec(b, validVehicleShow(), func() Packet { return new(VehicleShow) })
}
