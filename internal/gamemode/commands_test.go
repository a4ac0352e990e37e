package gamemode

import (
	"fmt"
	"strings"
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// Every player command sends what the world sends for it.
func TestPlayerCommands(t *testing.T) {
	f := newFixture(t, files("main.lua", `dlmp.on("player_connect", function(p) me = me or p end)`))
	p, c := f.join()
	f.join()
	c.take()
	f.lua(`me:spawn(10, 20, 5, { heading = 90, skin = 7, health = 80, armor = 20, interior = 1, world = 2 })`)
	sp := only[*wire.SpawnPlayer](c.take())
	if len(sp) != 1 || sp[0].X != 10 || sp[0].Heading != 90 || sp[0].Skin != 7 || sp[0].Health != 80 || sp[0].Armour != 20 || sp[0].Interior != 1 || sp[0].World != 2 {
		t.Fatalf("spawn sent %+v", sp)
	}
	f.lua(`assert(me:life() == "alive" and me:world() == 2 and me:interior() == 1 and me:armor() == 20)`)
	f.sync(p, c, grid.Vec{X: 10, Y: 20, Z: 5}, 80, 1)

	tests := []struct {
		src   string
		check func([]wire.Packet) bool
	}{
		{`me:teleport(50, 60, 7, { heading = 10 })`, func(ps []wire.Packet) bool {
			tp := only[*wire.TeleportPlayer](ps)
			return len(tp) == 1 && tp[0].X == 50 && tp[0].Heading == 10 && tp[0].World == 0
		}},
		{`me:give_weapon(24, 50)`, func(ps []wire.Packet) bool {
			g := only[*wire.GiveWeapon](ps)
			return len(g) == 1 && g[0].Weapon == 24 && g[0].Ammo == 50
		}},
		{`me:give_health(15)`, func(ps []wire.Packet) bool { g := only[*wire.GiveHealth](ps); return len(g) == 1 && g[0].Amount == 15 }},
		{`me:give_armor(30)`, func(ps []wire.Packet) bool { g := only[*wire.GiveArmor](ps); return len(g) == 1 && g[0].Amount == 30 }},
		{`me:set_skin(100); assert(me:skin() == 100)`, func(ps []wire.Packet) bool { g := only[*wire.SetSkin](ps); return len(g) == 1 && g[0].Skin == 100 }},
		{`me:set_wanted(3); assert(me:wanted() == 3)`, func(ps []wire.Packet) bool { g := only[*wire.SetWanted](ps); return len(g) == 1 && g[0].Level == 3 }},
		{`me:set_time(22, 30)`, func(ps []wire.Packet) bool {
			g := only[*wire.SetTime](ps)
			return len(g) == 1 && g[0].Hours == 22 && g[0].Minutes == 30
		}},
		{`me:set_weather(9)`, func(ps []wire.Packet) bool { g := only[*wire.SetWeather](ps); return len(g) == 1 && g[0].Weather == 9 }},
		{`me:set_waypoint(100, 200); local x, y = me:waypoint(); assert(x == 100 and y == 200)`, func(ps []wire.Packet) bool {
			g := only[*wire.SetWaypoint](ps)
			return len(g) == 1 && g[0].Active == 1 && g[0].X == 100
		}},
		{`me:clear_waypoint(); assert(me:waypoint() == nil)`, func(ps []wire.Packet) bool {
			g := only[*wire.SetWaypoint](ps)
			return len(g) == 1 && g[0].Active == 0
		}},
		{`me:send_chat("hi", 0x00FF00)`, func(ps []wire.Packet) bool {
			g := only[*wire.ChatMessage](ps)
			return len(g) == 1 && g[0].Text.String() == "hi" && g[0].Color == 0x00FF00 && g[0].From == 0xFFFF
		}},
		{`me:send_chat("from 1", nil, dlmp.get_player(1))`, func(ps []wire.Packet) bool {
			g := only[*wire.ChatMessage](ps)
			return len(g) == 1 && g[0].From == 1 && g[0].Color == 0xFFFFFF
		}},
	}
	for _, tt := range tests {
		f.lua(tt.src)
		if out := c.take(); !tt.check(out) {
			t.Errorf("%s sent %v", tt.src, out)
		}
	}
	f.lua(`me:kick()`)
	if c.kicked != wire.ReasonKicked {
		t.Fatalf("kick: reason %d, want %d", c.kicked, wire.ReasonKicked)
	}
	f.noErrors()
}

func TestServerCommands(t *testing.T) {
	f := newFixture(t, files("main.lua", `-- commands from the tests`))
	p, c := f.join()
	p2, c2 := f.join()
	f.spawn(p, c, grid.Vec{X: 100, Z: 3})
	f.spawn(p2, c2, grid.Vec{X: 900, Z: 3})
	c.take()
	c2.take()

	f.lua(`dlmp.set_garage_open(12, true); assert(dlmp.is_garage_open(12) and not dlmp.is_garage_open(11))`)
	if g := only[*wire.GarageDoors](c2.take()); len(g) != 1 || g[0].Open != 1<<12 {
		t.Fatalf("GarageDoors = %+v", g)
	}
	f.lua(`dlmp.set_garage_open(12, true)`) // no change: nothing sent
	if out := c.take(); len(only[*wire.GarageDoors](out)) != 1 {
		t.Fatalf("player 0 got %v, want the one GarageDoors of the change", out)
	}
	f.lua(`dlmp.set_weather(16); assert(dlmp.get_weather() == 16)`)
	if g := only[*wire.SetWeather](c.take()); len(g) != 1 || g[0].Weather != 16 {
		t.Fatalf("SetWeather = %+v", g)
	}
	f.lua(`dlmp.run_clock(6, 30, 500)
		local h, m, running, ms = dlmp.get_clock()
		assert(h == 6 and m == 30 and running and ms == 500, "run_clock")`)
	if g := only[*wire.RunClock](c.take()); len(g) != 1 || g[0].MinuteMs != 500 {
		t.Fatalf("RunClock = %+v", g)
	}
	f.lua(`dlmp.freeze_clock(23, 59); local h, m, running = dlmp.get_clock(); assert(h == 23 and m == 59 and not running)`)
	if g := only[*wire.SetTime](c.take()); len(g) != 1 || g[0].Hours != 23 {
		t.Fatalf("SetTime = %+v", g)
	}
	f.lua(`dlmp.real_clock(60); local _, _, running, ms = dlmp.get_clock(); assert(running and ms == 60000)`)
	c.take()
	f.lua(`dlmp.broadcast_chat("to all", 0xFF0000)`)
	for i, conn := range []*testConn{c, c2} {
		if g := only[*wire.ChatMessage](conn.take()); len(g) != 1 || g[0].Text.String() != "to all" {
			t.Fatalf("player %d chat = %+v", i, g)
		}
	}
	f.lua(`dlmp.create_explosion(110, 0, 3, 7, 5)`) // near player 0 only
	if len(only[*wire.CreateExplosion](c.take())) != 1 || len(only[*wire.CreateExplosion](c2.take())) != 0 {
		t.Fatal("the explosion went to the wrong players")
	}
	f.noErrors()
}

// Bad arguments raise a Lua error naming the function, the argument and
// the rule; nothing changes and nothing crashes.
func TestArgumentErrors(t *testing.T) {
	f := newFixture(t, files("main.lua", `dlmp.on("player_connect", function(p) me = p end); pk = dlmp.create_pickup(1240, 0, 0, 3)`))
	_, c := f.join()
	tests := []struct{ src, want string }{
		{`dlmp.create_pickup(7, 0, 0, 0)`, "create_pickup: model:"},
		{`dlmp.create_pickup("x", 0, 0, 0)`, "create_pickup: model: must be a number, got string"},
		{`dlmp.create_pickup(1240.5, 0, 0, 0)`, "create_pickup: model: must be an integer"},
		{`dlmp.create_pickup(1240, 5000, 0, 0)`, "create_pickup: x:"},
		{`dlmp.create_pickup(1240, 0, 0, -300)`, "create_pickup: z:"},
		{`dlmp.create_pickup(1240, 0, 0, 0, { scale = 11 })`, "create_pickup: scale:"},
		{`dlmp.create_pickup(1240, 0, 0, 0, { behavior = "sticky" })`, `create_pickup: behavior: must be "collectible" or "static"`},
		{`dlmp.create_pickup(1240, 0, 0, 0, { respawn = -1 })`, "create_pickup: respawn: must be an integer"},
		{`dlmp.create_pickup(1240, 0, 0, 0, { colour = 1 })`, "create_pickup: options: unknown option colour"},
		{`dlmp.create_pickup(1240, 0, 0, 0, 5)`, "create_pickup: options: must be a table, got number"},
		{`dlmp.create_pickup(1240, 0, 0, 0, { grant = { health = 101 } })`, "create_pickup: grant.health: must be an integer 1..100"},
		{`dlmp.create_pickup(1240, 0, 0, 0, { grant = { health = 5, armor = 5 } })`, "create_pickup: grant: must hold exactly one"},
		{`dlmp.create_pickup(1240, 0, 0, 0, { grant = { weapon = 20 } })`, "create_pickup: grant.weapon:"},
		{`dlmp.create_pickup(1240, 0, 0, 0, { grant = { health = 5, ammo = 5 } })`, "create_pickup: grant: ammo goes with weapon only"},
		{`pk:set_position(0, 0, 5000)`, "set_position: z:"},
		{`pk:set_position(0, 0)`, "set_position: z: must be a number, got nil"},
		{`pk.position(me)`, "pickup expected, got player"},
		{`dlmp.collect_pickup("one")`, "collect_pickup: pickup: must be a pickup or a pickup id, got string"},
		{`dlmp.collect_pickup(me)`, "pickup expected, got player"},
		{`dlmp.take_pickup(me, pk)`, "take_pickup: pickup: pickup 1 has no grant"},
		{`me:give_health(5)`, "give_health: player: must be alive, is not spawned"},
		{`me:respawn(0, 0, 3)`, "respawn: player: must be dead"},
		{`me:teleport(0, 0, 3)`, "teleport: player: must be alive"},
		{`me:spawn(0, 0, 3, { skin = 74 })`, "spawn: params:"},
		{`me:spawn(0, 0, 3, { heading = "north" })`, "spawn: heading: must be a number, got string"},
		{`me:set_skin(74)`, "set_skin: skin:"},
		{`me:set_wanted(7)`, "set_wanted: level:"},
		{`me:set_time(24, 0)`, "set_time: time:"},
		{`me:set_weather(23)`, "set_weather: weather:"},
		{`me:set_waypoint(0 / 0, 0)`, "set_waypoint: waypoint:"},
		{`me:send_chat("")`, "send_chat:"},
		{`me:send_chat("x", 0x1000000)`, "send_chat: color: must be an integer 0..16777215"},
		{`me:send_chat(5)`, "send_chat: text: must be a string, got number"},
		{`me.health()`, "player expected, got nil"},
		{`dlmp.get_player(-1)`, "get_player: id: must be an integer 0..65535"},
		{`dlmp.set_garage_open(50, true)`, "set_garage_open: id: must be 0..49, got 50"},
		{`dlmp.set_garage_open(1, 1)`, "set_garage_open: open: must be a boolean, got number"},
		{`dlmp.set_weather(23)`, "set_weather: weather:"},
		{`dlmp.freeze_clock(12, 60)`, "freeze_clock: time:"},
		{`dlmp.run_clock(12, 0, 5)`, "run_clock: params:"},
		{`dlmp.real_clock(900)`, "real_clock: utc_offset_minutes: must be -720..840"},
		{`dlmp.create_explosion(0, 0, 0, 99, 5)`, "create_explosion: params:"},
		{`dlmp.broadcast_chat(string.rep("x", 145))`, "broadcast_chat:"},
		{`dlmp.load_map("../etc/passwd")`, `load_map: path: must be a path inside the gamemode folder`},
		{`dlmp.load_map("/etc/passwd")`, `load_map: path: must be a path inside the gamemode folder`},
		{`dlmp.load_map("missing.map")`, `load_map: path: open missing.map`},
		{`dlmp.load_map("main.lua")`, `load_map: path: main.lua: not a map`},
	}
	for _, tt := range tests {
		msg := f.luaErr(tt.src)
		if !strings.Contains(msg, tt.want) {
			t.Errorf("%s: error %q, want it to contain %q", tt.src, msg, tt.want)
		}
		if !strings.Contains(msg, "<string>:1:") {
			t.Errorf("%s: error %q does not say where in the script", tt.src, msg)
		}
	}
	if len(c.take()) != 0 {
		t.Fatal("refused commands sent packets")
	}
	if n := fmt.Sprint(f.w.Pickup(2)); n != "<nil>" {
		t.Fatalf("a refused create_pickup created pickup 2: %s", n)
	}
}
