package mirror

import (
	"testing"

	"dlmp/internal/wire"
)

func TestJoinState(t *testing.T) {
	m := newMirror(t, frozenHello())
	if got := m.Weather(); got != 10 {
		t.Errorf("Weather() = %d, want 10 from ServerHello", got)
	}
	for _, door := range []struct {
		id   int
		open bool
	}{{0, true}, {1, false}, {49, true}, {50, false}, {-1, false}, {64, false}} {
		if got := m.GarageOpen(door.id); got != door.open {
			t.Errorf("GarageOpen(%d) = %v, want %v", door.id, got, door.open)
		}
	}
	if l := m.Local(); l.ID != selfID || l.Spawned || l.Landed != 0 {
		t.Errorf("Local() at join = %+v, want id %d, not spawned, nothing landed", l, selfID)
	}
	apply(t, m, &wire.SetWeather{Weather: 22}, at(1))
	apply(t, m, &wire.GarageDoors{Open: 1 << 3}, at(1))
	if m.Weather() != 22 || m.GarageDoors() != 1<<3 || m.GarageOpen(0) {
		t.Errorf("after SetWeather and GarageDoors: weather %d, doors %b", m.Weather(), m.GarageDoors())
	}
}

func TestLocalPlayer(t *testing.T) {
	m := newMirror(t, frozenHello())
	steps := []struct {
		name  string
		pkt   wire.Packet
		check func(l Local) bool
	}{
		{"spawn places the player alive with skin, health, armour", &wire.SpawnPlayer{
			EventID: 4, X: 1, Y: 2, Z: 3, Heading: 90, Skin: 20, Interior: 3, World: 7, Health: 80, Armour: 10,
		}, func(l Local) bool {
			return l.Spawned && l.Landed == 4 && l.Pos == (Vec3{1, 2, 3}) && l.Heading == 90 &&
				l.Skin == 20 && l.Interior == 3 && l.World == 7 && l.Health == 80 && l.Armour == 10
		}},
		{"health grant caps at 100", &wire.GiveHealth{Amount: 50}, func(l Local) bool { return l.Health == 100 }},
		{"armour grant adds", &wire.GiveArmor{Amount: 60}, func(l Local) bool { return l.Armour == 70 }},
		{"armour grant caps at 100", &wire.GiveArmor{Amount: 60}, func(l Local) bool { return l.Armour == 100 }},
		{"a weapon goes to its slot", &wire.GiveWeapon{Weapon: 24, Ammo: 50}, func(l Local) bool {
			return l.Weapons[2] == Weapon{24, 50}
		}},
		{"the same weapon adds ammo", &wire.GiveWeapon{Weapon: 24, Ammo: 7}, func(l Local) bool {
			return l.Weapons[2] == Weapon{24, 57}
		}},
		{"another weapon of the slot replaces it", &wire.GiveWeapon{Weapon: 22, Ammo: 30}, func(l Local) bool {
			return l.Weapons[2] == Weapon{22, 30}
		}},
		{"other slots are kept", &wire.GiveWeapon{Weapon: 31, Ammo: 100}, func(l Local) bool {
			return l.Weapons[5] == Weapon{31, 100} && l.Weapons[2] == Weapon{22, 30}
		}},
		{"wanted level", &wire.SetWanted{Level: 6}, func(l Local) bool { return l.Wanted == 6 }},
		{"skin", &wire.SetSkin{Skin: 0}, func(l Local) bool { return l.Skin == 0 }},
		{"teleport moves and keeps the rest", &wire.TeleportPlayer{EventID: 9, X: -5, Y: 6, Z: 7, Heading: 10, Interior: 0, World: 1},
			func(l Local) bool {
				return l.Landed == 9 && l.Pos == (Vec3{-5, 6, 7}) && l.Heading == 10 && l.Interior == 0 &&
					l.World == 1 && l.Health == 100 && l.Weapons[5] == Weapon{31, 100}
			}},
		{"respawn: full health, no armour, same skin, no weapons", &wire.RespawnPlayer{EventID: 12, X: 8, Heading: 0, World: 2},
			func(l Local) bool {
				return l.Landed == 12 && l.Pos == (Vec3{8, 0, 0}) && l.Health == 100 && l.Armour == 0 &&
					l.Skin == 0 && l.World == 2 && l.Weapons == [WeaponSlots]Weapon{}
			}},
	}
	for _, s := range steps {
		apply(t, m, s.pkt, at(1))
		if l := m.Local(); !s.check(l) {
			t.Errorf("%s: Local() = %+v", s.name, l)
		}
	}
}

func TestWeaponSlots(t *testing.T) {
	want := map[uint8]int{
		0: 0, 1: 0, 2: 1, 9: 1, 10: 10, 15: 10, 16: 8, 18: 8, 19: -1, 21: -1, 22: 2, 24: 2,
		25: 3, 27: 3, 28: 4, 29: 4, 32: 4, 30: 5, 31: 5, 33: 6, 34: 6, 35: 7, 38: 7,
		39: 8, 40: 12, 41: 9, 43: 9, 44: 11, 46: 11, 47: -1,
	}
	for w, slot := range want {
		if got := weaponSlot(w); got != slot {
			t.Errorf("weaponSlot(%d) = %d, want %d", w, got, slot)
		}
	}
}

func TestWaypoint(t *testing.T) {
	type step struct {
		do         func(m *Mirror)
		want       Waypoint
		report     bool
		reportWant wire.PlayerWaypoint
	}
	set := func(active uint8, x, y float32) func(m *Mirror) {
		return func(m *Mirror) { apply(t, m, &wire.SetWaypoint{Active: active, X: x, Y: y}, at(1)) }
	}
	spawnAt := func(m *Mirror) { spawn(t, m, 3, Vec3{}, 0, at(1)) }
	click := func(w Waypoint) func(m *Mirror) { return func(m *Mirror) { m.SetMapWaypoint(w) } }
	tests := []struct {
		name  string
		steps []step
	}{
		{"SetWaypoint before the spawn waits for it, the latest winning", []step{
			{set(1, 10, 20), Waypoint{}, false, wire.PlayerWaypoint{}},
			{set(1, 30, 40), Waypoint{}, false, wire.PlayerWaypoint{}},
			{spawnAt, Waypoint{true, 30, 40}, true, wire.PlayerWaypoint{Active: 1, X: 30, Y: 40}},
		}},
		{"SetWaypoint after the spawn is set and answered once", []step{
			{spawnAt, Waypoint{}, false, wire.PlayerWaypoint{}},
			{set(1, -100, 2999), Waypoint{true, -100, 2999}, true, wire.PlayerWaypoint{Active: 1, X: -100, Y: 2999}},
			{func(*Mirror) {}, Waypoint{true, -100, 2999}, false, wire.PlayerWaypoint{}},
			{set(0, 0, 0), Waypoint{}, true, wire.PlayerWaypoint{}},
		}},
		{"the player's own changes are reported, repeats are not", []step{
			{spawnAt, Waypoint{}, false, wire.PlayerWaypoint{}},
			{click(Waypoint{true, 5, 6}), Waypoint{true, 5, 6}, true, wire.PlayerWaypoint{Active: 1, X: 5, Y: 6}},
			{click(Waypoint{true, 5, 6}), Waypoint{true, 5, 6}, false, wire.PlayerWaypoint{}},
			{click(Waypoint{X: 1}), Waypoint{}, true, wire.PlayerWaypoint{}},
			{click(Waypoint{}), Waypoint{}, false, wire.PlayerWaypoint{}},
		}},
		{"nothing is reported before the spawn", []step{
			{click(Waypoint{true, 5, 6}), Waypoint{true, 5, 6}, false, wire.PlayerWaypoint{}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMirror(t, frozenHello())
			for i, s := range tt.steps {
				s.do(m)
				if got := m.Waypoint(); got != s.want {
					t.Errorf("step %d: Waypoint() = %+v, want %+v", i, got, s.want)
				}
				got, ok := m.WaypointReport()
				if ok != s.report || got != s.reportWant {
					t.Errorf("step %d: WaypointReport() = %+v, %v, want %+v, %v", i, got, ok, s.reportWant, s.report)
				}
				if ok {
					got.Token, got.EventID = 1, 1 // the client's part
					if err := got.CheckSend(); err != nil {
						t.Errorf("step %d: the report does not pass CheckSend: %v", i, err)
					}
				}
			}
		})
	}
}
