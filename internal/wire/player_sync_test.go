package wire

import (
	"math"
	"testing"
)

func validPlayerSync() Packet {
	return &PlayerSync{
		Token: 0x0123456789ABCDEF, Seq: 1234, Landed: 9, State: StateDriver,
		X: 2495.5, Y: -1687.25, Z: 13.5, Heading: 90, VX: 12.5, VY: -3, VZ: 0.25,
		Health: 100, Armour: 50, Weapon: 24, Interior: 0, World: 0,
		VehicleID: 12, Seat: 0, QX: 0, QY: 0, QZ: 0.70710677, QW: 0.70710677, VehicleHealth: 1000,
	}
}

func ps(f func(p *PlayerSync)) func(Packet) { return func(p Packet) { f(p.(*PlayerSync)) } }

// onFoot turns the valid driver into a player on foot.
func onFoot(p *PlayerSync) {
	p.State, p.VehicleID, p.QX, p.QY, p.QZ, p.QW, p.VehicleHealth = StateOnFoot, 0, 0, 0, 0, 0, 0
}

func TestPlayerSyncExample(t *testing.T) {
	checkExample(t, "player_sync.bin", validPlayerSync())
	checkTruncated(t, validPlayerSync().Append(nil), func() Packet { return new(PlayerSync) })
}

func TestPlayerSyncRules(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	cases := []ruleCase{
		{"token 0", ps(func(p *PlayerSync) { p.Token = 0 }), "token"},
		{"state 5", ps(func(p *PlayerSync) { p.State = 5 }), "state"},
		{"on foot", ps(onFoot), ""},
		{"dead", ps(func(p *PlayerSync) { onFoot(p); p.State, p.Health = StateDead, 0 }), ""},
		{"not spawned", ps(func(p *PlayerSync) { onFoot(p); p.State = StateNotSpawned }), ""},
		{"x 6000", ps(func(p *PlayerSync) { p.X = 6000 }), ""},
		{"x 6000.5", ps(func(p *PlayerSync) { p.X = 6000.5 }), "x"},
		{"y -6000", ps(func(p *PlayerSync) { p.Y = -6000 }), ""},
		{"y -6000.5", ps(func(p *PlayerSync) { p.Y = -6000.5 }), "y"},
		{"z -200", ps(func(p *PlayerSync) { p.Z = -200 }), ""},
		{"z -200.5", ps(func(p *PlayerSync) { p.Z = -200.5 }), "z"},
		{"z 4000", ps(func(p *PlayerSync) { p.Z = 4000 }), ""},
		{"z 4000.5", ps(func(p *PlayerSync) { p.Z = 4000.5 }), "z"},
		{"x NaN", ps(func(p *PlayerSync) { p.X = nan }), "x"},
		{"heading 0", ps(func(p *PlayerSync) { p.Heading = 0 }), ""},
		{"heading 359.99", ps(func(p *PlayerSync) { p.Heading = 359.99 }), ""},
		{"heading 360", ps(func(p *PlayerSync) { p.Heading = 360 }), "heading"},
		{"heading -0.01", ps(func(p *PlayerSync) { p.Heading = -0.01 }), "heading"},
		{"heading NaN", ps(func(p *PlayerSync) { p.Heading = nan }), "heading"},
		{"vx 200", ps(func(p *PlayerSync) { p.VX = 200 }), ""},
		{"vx 200.5", ps(func(p *PlayerSync) { p.VX = 200.5 }), "vx"},
		{"vy -200", ps(func(p *PlayerSync) { p.VY = -200 }), ""},
		{"vy -200.5", ps(func(p *PlayerSync) { p.VY = -200.5 }), "vy"},
		{"vz inf", ps(func(p *PlayerSync) { p.VZ = inf }), "vz"},
		{"health 100", ps(func(p *PlayerSync) { p.Health = 100 }), ""},
		{"health 101", ps(func(p *PlayerSync) { p.Health = 101 }), "health"},
		{"armour 100", ps(func(p *PlayerSync) { p.Armour = 100 }), ""},
		{"armour 101", ps(func(p *PlayerSync) { p.Armour = 101 }), "armour"},
		{"weapon 18", ps(func(p *PlayerSync) { p.Weapon = 18 }), ""},
		{"weapon 19", ps(func(p *PlayerSync) { p.Weapon = 19 }), "weapon"},
		{"weapon 21", ps(func(p *PlayerSync) { p.Weapon = 21 }), "weapon"},
		{"weapon 22", ps(func(p *PlayerSync) { p.Weapon = 22 }), ""},
		{"weapon 46", ps(func(p *PlayerSync) { p.Weapon = 46 }), ""},
		{"weapon 47", ps(func(p *PlayerSync) { p.Weapon = 47 }), "weapon"},
		{"any interior and world", ps(func(p *PlayerSync) { p.Interior, p.World = 255, 0xFFFFFFFF }), ""},
		{"driver vehicle 1", ps(func(p *PlayerSync) { p.VehicleID = 1 }), ""},
		{"driver vehicle 0", ps(func(p *PlayerSync) { p.VehicleID = 0 }), "vehicle_id"},
		{"driver vehicle 1999", ps(func(p *PlayerSync) { p.VehicleID = 1999 }), ""},
		{"driver vehicle 2000", ps(func(p *PlayerSync) { p.VehicleID = 2000 }), "vehicle_id"},
		{"driver seat 1", ps(func(p *PlayerSync) { p.Seat = 1 }), "seat"},
		{"on foot vehicle 1", ps(func(p *PlayerSync) { onFoot(p); p.VehicleID = 1 }), "vehicle_id"},
		{"on foot seat 1", ps(func(p *PlayerSync) { onFoot(p); p.Seat = 1 }), "seat"},
		{"passenger seat 1", ps(func(p *PlayerSync) { onFoot(p); p.State, p.VehicleID, p.Seat = StatePassenger, 5, 1 }), ""},
		{"passenger seat 8", ps(func(p *PlayerSync) { onFoot(p); p.State, p.VehicleID, p.Seat = StatePassenger, 5, 8 }), ""},
		{"passenger seat 9", ps(func(p *PlayerSync) { onFoot(p); p.State, p.VehicleID, p.Seat = StatePassenger, 5, 9 }), "seat"},
		{"passenger seat 0", ps(func(p *PlayerSync) { onFoot(p); p.State, p.VehicleID, p.Seat = StatePassenger, 5, 0 }), "seat"},
		{"passenger no vehicle", ps(func(p *PlayerSync) { onFoot(p); p.State, p.Seat = StatePassenger, 1 }), "vehicle_id"},
		{"passenger with rotation", ps(func(p *PlayerSync) { onFoot(p); p.State, p.VehicleID, p.Seat, p.QW = StatePassenger, 5, 1, 1 }), "qw"},
		{"quat norm 0.98", ps(func(p *PlayerSync) { p.QX, p.QY, p.QZ, p.QW = 0, 0, 0, float32(math.Sqrt(0.9801)) }), ""},
		{"quat norm 0.97", ps(func(p *PlayerSync) { p.QX, p.QY, p.QZ, p.QW = 0, 0, 0, float32(math.Sqrt(0.97)) }), "qw"},
		{"quat norm 1.02", ps(func(p *PlayerSync) { p.QX, p.QY, p.QZ, p.QW = 0, 0, 0, float32(math.Sqrt(1.0199)) }), ""},
		{"quat norm 1.03", ps(func(p *PlayerSync) { p.QX, p.QY, p.QZ, p.QW = 0, 0, 0, float32(math.Sqrt(1.03)) }), "qw"},
		{"quat NaN", ps(func(p *PlayerSync) { p.QX = nan }), "qw"},
		{"quat zero for a driver", ps(func(p *PlayerSync) { p.QZ, p.QW = 0, 0 }), "qw"},
		{"vehicle_health 0", ps(func(p *PlayerSync) { p.VehicleHealth = 0 }), ""},
		{"vehicle_health 1001", ps(func(p *PlayerSync) { p.VehicleHealth = 1001 }), "vehicle_health"},
		{"on foot vehicle_health", ps(func(p *PlayerSync) { onFoot(p); p.VehicleHealth = 1 }), "vehicle_health"},
	}
	checkRules(t, "client", validPlayerSync, send, cases)
	checkRules(t, "server", validPlayerSync, recv, cases)
}

func FuzzPlayerSync(f *testing.F) {
	f.Add(validPlayerSync().Append(nil))
	f.Add(make([]byte, PlayerSyncLen))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(PlayerSync) }) })
}

func BenchmarkPlayerSync(b *testing.B) {
	benchCodec(b, validPlayerSync(), func() Packet { return new(PlayerSync) })
}
