package wire

import (
	"math"
	"testing"
)

func validTeleportPlayer() Packet {
	return &TeleportPlayer{EventID: 5, X: 2233.9, Y: 1714.7, Z: 1011.4, Heading: 180, Interior: 1, World: 7}
}

func TestTeleportPlayerExample(t *testing.T) {
	checkExample(t, "teleport_player.bin", validTeleportPlayer())
	checkTruncated(t, validTeleportPlayer().Append(nil), func() Packet { return new(TeleportPlayer) })
}

func TestTeleportPlayerRules(t *testing.T) {
	nan := float32(math.NaN())
	cases := []ruleCase{
		{"x 6000", func(q Packet) { p := q.(*TeleportPlayer); p.X = 6000 }, ""},
		{"x 6000.5", func(q Packet) { p := q.(*TeleportPlayer); p.X = 6000.5 }, "x"},
		{"y -6000", func(q Packet) { p := q.(*TeleportPlayer); p.Y = -6000 }, ""},
		{"y -6000.5", func(q Packet) { p := q.(*TeleportPlayer); p.Y = -6000.5 }, "y"},
		{"z -200", func(q Packet) { p := q.(*TeleportPlayer); p.Z = -200 }, ""},
		{"z -200.5", func(q Packet) { p := q.(*TeleportPlayer); p.Z = -200.5 }, "z"},
		{"z 4000", func(q Packet) { p := q.(*TeleportPlayer); p.Z = 4000 }, ""},
		{"z 4000.5", func(q Packet) { p := q.(*TeleportPlayer); p.Z = 4000.5 }, "z"},
		{"x NaN", func(q Packet) { p := q.(*TeleportPlayer); p.X = nan }, "x"},
		{"heading 0", func(q Packet) { p := q.(*TeleportPlayer); p.Heading = 0 }, ""},
		{"heading 359.99", func(q Packet) { p := q.(*TeleportPlayer); p.Heading = 359.99 }, ""},
		{"heading 360", func(q Packet) { p := q.(*TeleportPlayer); p.Heading = 360 }, "heading"},
		{"heading -0.01", func(q Packet) { p := q.(*TeleportPlayer); p.Heading = -0.01 }, "heading"},
		{"heading NaN", func(q Packet) { p := q.(*TeleportPlayer); p.Heading = nan }, "heading"},
		{"any interior and world", func(q Packet) { p := q.(*TeleportPlayer); p.Interior, p.World = 255, 0xFFFFFFFF }, ""},
	}
	checkRules(t, "server", validTeleportPlayer, send, cases)
	checkRules(t, "client", validTeleportPlayer, recv, cases)
}

func FuzzTeleportPlayer(f *testing.F) {
	f.Add(validTeleportPlayer().Append(nil))
	f.Add(make([]byte, validTeleportPlayer().Len()))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(TeleportPlayer) }) })
}

func BenchmarkTeleportPlayer(b *testing.B) {
	benchCodec(b, validTeleportPlayer(), func() Packet { return new(TeleportPlayer) })
}
