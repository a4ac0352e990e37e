package gamemode

import (
	"math"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/grid"
)

// Any numbers given to the commands either work or raise an error naming
// the function and the argument; never a Go runtime error (gopher-lua
// would turn a Go panic into a Lua error: this test tells them apart).
func FuzzCommandArguments(f *testing.F) {
	f.Add(1240.0, 0.0, 0.0, 3.0, 1.0, 50.0)
	f.Add(7.0, 5000.0, -5000.0, 99999.0, 0.0, -1.0)
	f.Add(math.NaN(), math.Inf(1), math.Inf(-1), 1e300, math.Copysign(0, -1), 1.5)
	f.Add(4294967296.0, 1e-300, 4095.0, -200.0, 10.0, 256.0)
	f.Fuzz(func(t *testing.T, a, b, c, d, e, g float64) {
		fx := newFixture(t, files("main.lua", `
			pk = dlmp.create_pickup(1240, 0, 0, 3)
			ob = dlmp.create_object(1337, 0, 0, 3)
			veh = dlmp.create_vehicle(411, 5, 5, 3)
			dlmp.on("player_connect", function(p) me = p end)
			calls = {
				function(a, b, c, d, e, g) dlmp.create_pickup(a, b, c, d, { scale = e, respawn = g }) end,
				function(a, b, c, d, e, g) pk:set_position(a, b, c) end,
				function(a, b, c, d, e, g) me:spawn(a, b, c, { heading = d, skin = e, health = g }) end,
				function(a, b, c, d, e, g) me:give_weapon(a, b); me:give_health(c); me:give_armor(d) end,
				function(a, b, c, d, e, g) me:set_waypoint(a, b); me:set_time(c, d); me:set_weather(e) end,
				function(a, b, c, d, e, g) me:teleport(a, b, c, { world = d, interior = e }) end,
				function(a, b, c, d, e, g) dlmp.create_explosion(a, b, c, d, e, { world = g }) end,
				function(a, b, c, d, e, g) dlmp.run_clock(a, b, c); dlmp.set_weather(d); dlmp.set_garage_open(e, true) end,
				function(a, b, c, d, e, g) dlmp.collect_pickup(a); dlmp.get_pickup(b); dlmp.get_player(c) end,
				function(a, b, c, d, e, g) me:send_chat("x", a); dlmp.real_clock(b); dlmp.freeze_clock(c, d) end,
				function(a, b, c, d, e, g) dlmp.create_label("x", a, b, c, { draw_distance = d, color = e, world = g }) end,
				function(a, b, c, d, e, g) dlmp.create_checkpoint(me, a, b, c, { radius = d, color = e, next = { e, g, a } }) end,
				function(a, b, c, d, e, g) dlmp.create_blip(a, b, c, { sprite = d, size = e, draw_distance = g }) end,
				function(a, b, c, d, e, g) dlmp.create_gang_zone(a, b, c, d, { alpha = e, color = g }):show() end,
				function(a, b, c, d, e, g) dlmp.create_col_cuboid(a, b, c, d, e, g); dlmp.create_col_tube(a, b, c, d, e) end,
				function(a, b, c, d, e, g) dlmp.create_col_sphere(a, b, c, d, { world = e, interior = g }) end,
				function(a, b, c, d, e, g) dlmp.create_object(a, b, c, d, { rz = e, distance = g }) end,
				function(a, b, c, d, e, g) ob:move(a, b, c, d, e, g); ob:set_position(a, b, c, d, e, g) end,
				function(a, b, c, d, e, g) ob:attach(me, { x = a, y = b, z = c, bone = d, rz = e }); ob:detach() end,
				function(a, b, c, d, e, g) dlmp.create_vehicle(a, b, c, d, { heading = e, respawn = g }) end,
				function(a, b, c, d, e, g) veh:set_position(a, b, c, d); dlmp.get_vehicle(e); dlmp.get_object(g) end,
				function(a, b, c, d, e, g) me:set_color(a); me:set_name(tostring(b)) end,
			}
		`))
		p, c0 := fx.join()
		fx.spawn(p, c0, grid.Vec{Z: 3})
		L := fx.m.Runtime().L
		calls := fx.global("calls").(*lua.LTable)
		args := []lua.LValue{lua.LNumber(a), lua.LNumber(b), lua.LNumber(c), lua.LNumber(d), lua.LNumber(e), lua.LNumber(g)}
		for i := 1; i <= calls.Len(); i++ {
			err := L.CallByParam(lua.P{Fn: calls.RawGetInt(i), Protect: true}, args...)
			if err == nil {
				continue
			}
			msg := err.Error()
			if strings.Contains(msg, "runtime error") || !strings.Contains(msg, ": ") {
				t.Fatalf("call %d with %v: %s", i, args, msg)
			}
		}
	})
}
