package wire

import (
	"math"
	"testing"
)

func validPlayerMove() Packet {
	return &PlayerMove{Seq: 500, PlayerID: 7, State: StateOnFoot, X: 2495.5, Y: -1687.25, Z: 13.5, Heading: 45, VX: 1, VY: 2, VZ: 0, Health: 80, Armour: 0, Weapon: 0}
}

func TestPlayerMoveExample(t *testing.T) {
	checkExample(t, "player_move.bin", validPlayerMove())
	checkTruncated(t, validPlayerMove().Append(nil), func() Packet { return new(PlayerMove) })
}

func TestPlayerMoveRules(t *testing.T) {
	nan := float32(math.NaN())
	cases := []ruleCase{
		{"player 999", func(q Packet) { p := q.(*PlayerMove); p.PlayerID = 999 }, ""},
		{"player 1000", func(q Packet) { p := q.(*PlayerMove); p.PlayerID = 1000 }, "player_id"},
		{"state 0", func(q Packet) { p := q.(*PlayerMove); p.State = 0 }, "state"},
		{"state 4", func(q Packet) { p := q.(*PlayerMove); p.State = 4 }, ""},
		{"state 5", func(q Packet) { p := q.(*PlayerMove); p.State = 5 }, "state"},
		{"heading 360", func(q Packet) { p := q.(*PlayerMove); p.Heading = 360 }, "heading"},
		{"health 101", func(q Packet) { p := q.(*PlayerMove); p.Health = 101 }, "health"},
		{"armour 101", func(q Packet) { p := q.(*PlayerMove); p.Armour = 101 }, "armour"},
		{"weapon 20", func(q Packet) { p := q.(*PlayerMove); p.Weapon = 20 }, "weapon"},
		{"weapon 47", func(q Packet) { p := q.(*PlayerMove); p.Weapon = 47 }, "weapon"},
		{"driver", func(q Packet) { p := q.(*PlayerMove); p.State, p.VehicleID = StateDriver, 1999 }, ""},
		{"driver vehicle 2000", func(q Packet) { p := q.(*PlayerMove); p.State, p.VehicleID = StateDriver, 2000 }, "vehicle_id"},
		{"driver no vehicle", func(q Packet) { p := q.(*PlayerMove); p.State = StateDriver }, "vehicle_id"},
		{"passenger seat 8", func(q Packet) { p := q.(*PlayerMove); p.State, p.VehicleID, p.Seat = StatePassenger, 1, 8 }, ""},
		{"passenger seat 9", func(q Packet) { p := q.(*PlayerMove); p.State, p.VehicleID, p.Seat = StatePassenger, 1, 9 }, "seat"},
		{"on foot with vehicle", func(q Packet) { p := q.(*PlayerMove); p.VehicleID = 1 }, "vehicle_id"},
		{"on foot with seat", func(q Packet) { p := q.(*PlayerMove); p.Seat = 1 }, "seat"},
		{"x 6000", func(q Packet) { p := q.(*PlayerMove); p.X = 6000 }, ""},
		{"x 6000.5", func(q Packet) { p := q.(*PlayerMove); p.X = 6000.5 }, "x"},
		{"y -6000", func(q Packet) { p := q.(*PlayerMove); p.Y = -6000 }, ""},
		{"y -6000.5", func(q Packet) { p := q.(*PlayerMove); p.Y = -6000.5 }, "y"},
		{"z -200", func(q Packet) { p := q.(*PlayerMove); p.Z = -200 }, ""},
		{"z -200.5", func(q Packet) { p := q.(*PlayerMove); p.Z = -200.5 }, "z"},
		{"z 4000", func(q Packet) { p := q.(*PlayerMove); p.Z = 4000 }, ""},
		{"z 4000.5", func(q Packet) { p := q.(*PlayerMove); p.Z = 4000.5 }, "z"},
		{"x NaN", func(q Packet) { p := q.(*PlayerMove); p.X = nan }, "x"},
		{"vx 200", func(q Packet) { p := q.(*PlayerMove); p.VX = 200 }, ""},
		{"vx 200.5", func(q Packet) { p := q.(*PlayerMove); p.VX = 200.5 }, "vx"},
		{"vy -200", func(q Packet) { p := q.(*PlayerMove); p.VY = -200 }, ""},
		{"vy -200.5", func(q Packet) { p := q.(*PlayerMove); p.VY = -200.5 }, "vy"},
		{"vz NaN", func(q Packet) { p := q.(*PlayerMove); p.VZ = nan }, "vz"},
	}
	checkRules(t, "server", validPlayerMove, send, cases)
	checkRules(t, "client", validPlayerMove, recv, cases)
}

func FuzzPlayerMove(f *testing.F) {
	f.Add(validPlayerMove().Append(nil))
	f.Add(make([]byte, validPlayerMove().Len()))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(PlayerMove) }) })
}

func BenchmarkPlayerMove(b *testing.B) {
	benchCodec(b, validPlayerMove(), func() Packet { return new(PlayerMove) })
}
