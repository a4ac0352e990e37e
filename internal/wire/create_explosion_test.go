package wire

import (
	"math"
	"testing"
)

func validCreateExplosion() Packet {
	return &CreateExplosion{EventID: 10, X: 2495, Y: -1687, Z: 13.5, Type: 2, Radius: 5}
}

func TestCreateExplosionExample(t *testing.T) {
	checkExample(t, "create_explosion.bin", validCreateExplosion())
	checkTruncated(t, validCreateExplosion().Append(nil), func() Packet { return new(CreateExplosion) })
}

func TestCreateExplosionRules(t *testing.T) {
	nan := float32(math.NaN())
	cases := []ruleCase{
		{"x 6000", func(q Packet) { p := q.(*CreateExplosion); p.X = 6000 }, ""},
		{"x 6000.5", func(q Packet) { p := q.(*CreateExplosion); p.X = 6000.5 }, "x"},
		{"y -6000", func(q Packet) { p := q.(*CreateExplosion); p.Y = -6000 }, ""},
		{"y -6000.5", func(q Packet) { p := q.(*CreateExplosion); p.Y = -6000.5 }, "y"},
		{"z -200", func(q Packet) { p := q.(*CreateExplosion); p.Z = -200 }, ""},
		{"z -200.5", func(q Packet) { p := q.(*CreateExplosion); p.Z = -200.5 }, "z"},
		{"z 4000", func(q Packet) { p := q.(*CreateExplosion); p.Z = 4000 }, ""},
		{"z 4000.5", func(q Packet) { p := q.(*CreateExplosion); p.Z = 4000.5 }, "z"},
		{"x NaN", func(q Packet) { p := q.(*CreateExplosion); p.X = nan }, "x"},
		{"type 0", func(q Packet) { p := q.(*CreateExplosion); p.Type = 0 }, ""},
		{"type 12", func(q Packet) { p := q.(*CreateExplosion); p.Type = 12 }, ""},
		{"type 13", func(q Packet) { p := q.(*CreateExplosion); p.Type = 13 }, "type"},
		{"radius 100", func(q Packet) { p := q.(*CreateExplosion); p.Radius = 100 }, ""},
		{"radius 100.01", func(q Packet) { p := q.(*CreateExplosion); p.Radius = 100.01 }, "radius"},
		{"radius tiny", func(q Packet) { p := q.(*CreateExplosion); p.Radius = 1e-6 }, ""},
		{"radius 0", func(q Packet) { p := q.(*CreateExplosion); p.Radius = 0 }, "radius"},
		{"radius -1", func(q Packet) { p := q.(*CreateExplosion); p.Radius = -1 }, "radius"},
		{"radius NaN", func(q Packet) { p := q.(*CreateExplosion); p.Radius = nan }, "radius"},
	}
	checkRules(t, "server", validCreateExplosion, send, cases)
	checkRules(t, "client", validCreateExplosion, recv, cases)
}

func FuzzCreateExplosion(f *testing.F) {
	f.Add(validCreateExplosion().Append(nil))
	f.Add(make([]byte, validCreateExplosion().Len()))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(CreateExplosion) }) })
}

func BenchmarkCreateExplosion(b *testing.B) {
	benchCodec(b, validCreateExplosion(), func() Packet { return new(CreateExplosion) })
}
