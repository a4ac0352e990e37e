package wire

import (
	"math"
	"testing"
)

func validRespawnPlayer() Packet {
	return &RespawnPlayer{EventID: 4, X: 1178.5, Y: -1323.5, Z: 14.1, Heading: 90, Interior: 0, World: 0}
}

func TestRespawnPlayerExample(t *testing.T) {
	checkExample(t, "respawn_player.bin", validRespawnPlayer())
	checkTruncated(t, validRespawnPlayer().Append(nil), func() Packet { return new(RespawnPlayer) })
}

func TestRespawnPlayerRules(t *testing.T) {
	nan := float32(math.NaN())
	cases := []ruleCase{
		{"x 6000", func(q Packet) { p := q.(*RespawnPlayer); p.X = 6000 }, ""},
		{"x 6000.5", func(q Packet) { p := q.(*RespawnPlayer); p.X = 6000.5 }, "x"},
		{"y -6000", func(q Packet) { p := q.(*RespawnPlayer); p.Y = -6000 }, ""},
		{"y -6000.5", func(q Packet) { p := q.(*RespawnPlayer); p.Y = -6000.5 }, "y"},
		{"z -200", func(q Packet) { p := q.(*RespawnPlayer); p.Z = -200 }, ""},
		{"z -200.5", func(q Packet) { p := q.(*RespawnPlayer); p.Z = -200.5 }, "z"},
		{"z 4000", func(q Packet) { p := q.(*RespawnPlayer); p.Z = 4000 }, ""},
		{"z 4000.5", func(q Packet) { p := q.(*RespawnPlayer); p.Z = 4000.5 }, "z"},
		{"x NaN", func(q Packet) { p := q.(*RespawnPlayer); p.X = nan }, "x"},
		{"heading 0", func(q Packet) { p := q.(*RespawnPlayer); p.Heading = 0 }, ""},
		{"heading 359.99", func(q Packet) { p := q.(*RespawnPlayer); p.Heading = 359.99 }, ""},
		{"heading 360", func(q Packet) { p := q.(*RespawnPlayer); p.Heading = 360 }, "heading"},
		{"heading -0.01", func(q Packet) { p := q.(*RespawnPlayer); p.Heading = -0.01 }, "heading"},
		{"heading NaN", func(q Packet) { p := q.(*RespawnPlayer); p.Heading = nan }, "heading"},
		{"any interior and world", func(q Packet) { p := q.(*RespawnPlayer); p.Interior, p.World = 255, 0xFFFFFFFF }, ""},
	}
	checkRules(t, "server", validRespawnPlayer, send, cases)
	checkRules(t, "client", validRespawnPlayer, recv, cases)
}

func FuzzRespawnPlayer(f *testing.F) {
	f.Add(validRespawnPlayer().Append(nil))
	f.Add(make([]byte, validRespawnPlayer().Len()))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(RespawnPlayer) }) })
}

func BenchmarkRespawnPlayer(b *testing.B) {
	benchCodec(b, validRespawnPlayer(), func() Packet { return new(RespawnPlayer) })
}
