package wire

import (
	"math"
	"testing"
)

func validSpawnPlayer() Packet {
	return &SpawnPlayer{EventID: 3, X: 1958.33, Y: 1343.12, Z: 15.36, Heading: 270, Skin: 0, Interior: 0, World: 0, Health: 100, Armour: 0}
}

func TestSpawnPlayerExample(t *testing.T) {
	checkExample(t, "spawn_player.bin", validSpawnPlayer())
	checkTruncated(t, validSpawnPlayer().Append(nil), func() Packet { return new(SpawnPlayer) })
}

func TestSpawnPlayerRules(t *testing.T) {
	nan := float32(math.NaN())
	cases := []ruleCase{
		{"x 6000", func(q Packet) { p := q.(*SpawnPlayer); p.X = 6000 }, ""},
		{"x 6000.5", func(q Packet) { p := q.(*SpawnPlayer); p.X = 6000.5 }, "x"},
		{"y -6000", func(q Packet) { p := q.(*SpawnPlayer); p.Y = -6000 }, ""},
		{"y -6000.5", func(q Packet) { p := q.(*SpawnPlayer); p.Y = -6000.5 }, "y"},
		{"z -200", func(q Packet) { p := q.(*SpawnPlayer); p.Z = -200 }, ""},
		{"z -200.5", func(q Packet) { p := q.(*SpawnPlayer); p.Z = -200.5 }, "z"},
		{"z 4000", func(q Packet) { p := q.(*SpawnPlayer); p.Z = 4000 }, ""},
		{"z 4000.5", func(q Packet) { p := q.(*SpawnPlayer); p.Z = 4000.5 }, "z"},
		{"x NaN", func(q Packet) { p := q.(*SpawnPlayer); p.X = nan }, "x"},
		{"heading 0", func(q Packet) { p := q.(*SpawnPlayer); p.Heading = 0 }, ""},
		{"heading 359.99", func(q Packet) { p := q.(*SpawnPlayer); p.Heading = 359.99 }, ""},
		{"heading 360", func(q Packet) { p := q.(*SpawnPlayer); p.Heading = 360 }, "heading"},
		{"heading -0.01", func(q Packet) { p := q.(*SpawnPlayer); p.Heading = -0.01 }, "heading"},
		{"heading NaN", func(q Packet) { p := q.(*SpawnPlayer); p.Heading = nan }, "heading"},
		{"any interior and world", func(q Packet) { p := q.(*SpawnPlayer); p.Interior, p.World = 255, 0xFFFFFFFF }, ""},
		{"skin 73", func(q Packet) { p := q.(*SpawnPlayer); p.Skin = 73 }, ""},
		{"skin 74", func(q Packet) { p := q.(*SpawnPlayer); p.Skin = 74 }, "skin"},
		{"skin 75", func(q Packet) { p := q.(*SpawnPlayer); p.Skin = 75 }, ""},
		{"skin 311", func(q Packet) { p := q.(*SpawnPlayer); p.Skin = 311 }, ""},
		{"skin 312", func(q Packet) { p := q.(*SpawnPlayer); p.Skin = 312 }, "skin"},
		{"health 1", func(q Packet) { p := q.(*SpawnPlayer); p.Health = 1 }, ""},
		{"health 0", func(q Packet) { p := q.(*SpawnPlayer); p.Health = 0 }, "health"},
		{"health 101", func(q Packet) { p := q.(*SpawnPlayer); p.Health = 101 }, "health"},
		{"armour 100", func(q Packet) { p := q.(*SpawnPlayer); p.Armour = 100 }, ""},
		{"armour 101", func(q Packet) { p := q.(*SpawnPlayer); p.Armour = 101 }, "armour"},
	}
	checkRules(t, "server", validSpawnPlayer, send, cases)
	checkRules(t, "client", validSpawnPlayer, recv, cases)
}

func FuzzSpawnPlayer(f *testing.F) {
	f.Add(validSpawnPlayer().Append(nil))
	f.Add(make([]byte, validSpawnPlayer().Len()))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(SpawnPlayer) }) })
}

func BenchmarkSpawnPlayer(b *testing.B) {
	benchCodec(b, validSpawnPlayer(), func() Packet { return new(SpawnPlayer) })
}
