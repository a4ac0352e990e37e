package gamemode

import (
	"strings"
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// Each new kind: created from Lua, read back, changed, deleted; a deleted
// handle raises "<kind> N was deleted"; a bad argument names it.
func TestPrimitiveKinds(t *testing.T) {
	f := newFixture(t, files("main.lua", `dlmp.on("player_connect", function(p) me = p end)`))
	p, c := f.join()
	f.spawn(p, c, grid.Vec{X: 10, Y: 10, Z: 3})
	f.lua(`
		lab = dlmp.create_label("hi", 1, 2, 3, { color = 0x00FF00, player = me })
		assert(lab:text() == "hi" and lab:color() == 0x00FF00 and tostring(lab) == "label " .. lab.id)
		lab:set_text("there"); lab:set_color(0x123456); lab:set_position(0, 0, 1)
		assert(lab:text() == "there" and lab:color() == 0x123456 and select(3, lab:position()) == 1)
		assert(dlmp.get_label(lab.id) == lab)

		cp = dlmp.create_checkpoint(me, 100, 100, 3, { kind = "race", radius = 6, next = { 200, 100, 3 } })
		assert(cp:player() == me and not cp:is_inside())
		cp:set_position(110, 100, 3); cp:set_next(); cp:set_next(1, 2, 3)
		assert(cp:position() == 110)

		bl = dlmp.create_blip(50, 60, 0, { sprite = 5, pulse = true })
		assert(bl:sprite() == 5 and bl:position() == 50)
		bl:set_position(70, 60, 0); bl:set_color(0x0000FF)
		assert(bl:color() == 0x0000FF)
		pb = dlmp.create_blip(0, 0, 0, { player = me })

		gz = dlmp.create_gang_zone(-100, -100, 100, 100, { color = 0xFF0000, flashing = true })
		assert(not gz:is_shown_to_all() and gz:is_flashing())
		gz:show(); assert(gz:is_shown_to_all())
		gz:hide(me); gz:set_color(0x00FF00, 200); gz:set_flashing(false)
		assert(not gz:is_flashing() and select(3, gz:area()) == 100)

		cs = dlmp.create_col_cuboid(0, 0, 0, 20, 20, 10)
		assert(cs:is_inside(me)) -- the player stands at 10, 10, 3
		cs:show(me); cs:hide(me)
		t1 = dlmp.create_col_tube(500, 500, 0, 5, 10)
		s1 = dlmp.create_col_sphere(600, 600, 0, 5)

		ob = dlmp.create_object(1337, 5, 5, 3, { rz = 90 })
		assert(ob:model() == 1337 and not ob:is_moving() and not ob:is_broken())
		local x, y, z, rx, ry, rz = ob:position()
		assert(x == 5 and rz == 90)
		ob:set_position(6, 5, 3)
		ob:move(6, 50, 3, 2000); assert(ob:is_moving())
		ob:stop(); assert(not ob:is_moving())
		ob:attach(me, { z = 1 }); ob:detach()

		veh = dlmp.create_vehicle(411, 20, 20, 3, { heading = 90, color1 = 1 })
		assert(veh:model() == 411 and veh:health() == 1000 and veh:driver() == nil and veh:world() == 0)
		veh:set_position(25, 20, 3); assert(veh:position() == 25)
		veh:respawn(); assert(veh:position() == 20)

		me:set_name("Carl_Johnson"); me:set_color(0x00FF00)
		assert(me:name() == "Carl_Johnson" and me:color() == 0x00FF00)
	`)
	if got := p.Name(); got != "Carl_Johnson" {
		t.Fatalf("name = %q, want Carl_Johnson", got)
	}
	for _, tc := range []struct{ handle, use string }{
		{"lab", `lab:text()`},
		{"cp", `cp:position()`},
		{"bl", `bl:set_color(1)`},
		{"gz", `gz:show()`},
		{"cs", `cs:show(me)`},
		{"ob", `ob:move(1, 1, 1, 100)`},
		{"veh", `veh:respawn()`},
	} {
		f.lua(tc.handle + `:delete(); assert(not ` + tc.handle + `:exists())`)
		f.lua(`name = tostring(` + tc.handle + `)`) // "label 3"
		want := f.global("name").String() + " was deleted"
		wantContains(t, f.luaErr(tc.use), want)
	}
	for _, tc := range []struct{ src, want string }{
		{`dlmp.create_label(5, 0, 0, 0)`, "create_label: text: must be a string"},
		{`dlmp.create_label("x", 0, 0, 0, { draw_distance = 500 })`, "create_label"},
		{`dlmp.create_checkpoint(me, 0, 0, 0, { kind = "square" })`, "create_checkpoint: kind: must be"},
		{`dlmp.create_checkpoint(me, 0, 0, 0, { radius = 0 })`, "create_checkpoint"},
		{`dlmp.create_blip(0, 0, 0, { sprite = 99 })`, "create_blip"},
		{`dlmp.create_gang_zone(10, 10, 0, 0)`, "create_gang_zone"},
		{`dlmp.create_col_sphere(0, 0, 0, "big")`, "create_col_sphere: radius: must be a number"},
		{`dlmp.create_object(7, 0, 0, 0)`, "create_object: model"},
		{`dlmp.create_object(1337, 0, 0, 0, { colour = 1 })`, "unknown option colour"},
		{`dlmp.create_object(1337, 0, 0, 0):set_broken(true)`, "set_broken: object: model 1337 cannot break"},
		{`dlmp.create_object(1337, 0, 0, 0):set_broken("yes")`, "set_broken: broken: must be a boolean"},
		{`dlmp.create_object(1337, 0, 0, 0):attach(5)`, "attach: parent: must be a player, a vehicle or an object"},
		{`dlmp.create_vehicle(1, 0, 0, 0)`, "create_vehicle"},
		{`me:set_name("x")`, "set_name: name"},
		{`me:set_color(-1)`, "set_color: color"},
	} {
		wantContains(t, f.luaErr(tc.src), tc.want)
	}
	f.noErrors()
}

// A vehicle id the world reuses gets a new handle: the old one still says
// its vehicle was deleted.
func TestVehicleHandleSurvivesIDReuse(t *testing.T) {
	f := newFixture(t, files("main.lua", ``))
	f.lua(`
		a = dlmp.create_vehicle(411, 0, 0, 3)
		local id = a.id
		a:delete()
		b = dlmp.create_vehicle(560, 0, 0, 3)
		assert(b.id == id and b ~= a and dlmp.get_vehicle(id) == b)
		assert(not a:exists() and b:exists() and b:model() == 560)
	`)
	wantContains(t, f.luaErr(`a:model()`), "vehicle 1 was deleted")
}

// checkpoint_enter and checkpoint_leave, colshape_enter and colshape_leave
// and object_move_end reach Lua with their handles, in order.
func TestPrimitiveEvents(t *testing.T) {
	f := newFixture(t, files("main.lua", `
		log = {}
		local function add(s) log[#log + 1] = s end
		dlmp.on("player_connect", function(p)
			me = p
			cp = dlmp.create_checkpoint(p, 100, 0, 3, { radius = 5 })
		end)
		cs = dlmp.create_col_sphere(200, 0, 3, 5)
		ob = dlmp.create_object(1337, 0, 50, 3)
		dlmp.on("checkpoint_enter", function(p, c) add("cp_enter " .. p.id .. " " .. tostring(c == cp)) end)
		dlmp.on("checkpoint_leave", function(p, c) add("cp_leave " .. p.id .. " " .. tostring(c == cp)) end)
		dlmp.on("colshape_enter", function(p, c) add("col_enter " .. p.id .. " " .. tostring(c == cs)) end)
		dlmp.on("colshape_leave", function(p, c) add("col_leave " .. p.id .. " " .. tostring(c == cs)) end)
		dlmp.on("object_move_end", function(o) add("move_end " .. tostring(o == ob) .. " " .. o:position()) end)
	`))
	p, c := f.join()
	f.spawn(p, c, grid.Vec{Z: 3})
	step := func(x float32) {
		f.advance(time.Second)
		f.sync(p, c, grid.Vec{X: x, Z: 3}, 100, 1)
	}
	step(100)
	step(150)
	step(200)
	step(250)
	f.lua(`ob:move(10, 50, 3, 1000)`)
	f.advance(2 * time.Second)
	want := "cp_enter 0 true, cp_leave 0 true, col_enter 0 true, col_leave 0 true, move_end true 10"
	if got := strings.Join(f.logLines(), ", "); got != want {
		t.Fatalf("events: %s\nwant:   %s", got, want)
	}
	f.noErrors()
}

// The handles of entities the world deleted by itself (a leaving player's
// checkpoints and blip) are dropped by the sweep.
func TestSweepDropsHandlesOfWorldDeletions(t *testing.T) {
	f := newFixture(t, files("main.lua", `dlmp.on("player_connect", function(p)
		cp = dlmp.create_checkpoint(p, 100, 0, 3)
		bl = dlmp.create_blip(0, 0, 0, { player = p })
	end)`))
	p, c := f.join()
	f.spawn(p, c, grid.Vec{Z: 3})
	if len(f.m.kinds.cp.handles) != 1 || len(f.m.kinds.blip.handles) != 1 {
		t.Fatalf("handles: %d checkpoints, %d blips, want 1 and 1", len(f.m.kinds.cp.handles), len(f.m.kinds.blip.handles))
	}
	f.w.Leave(p, wire.ReasonQuit)
	f.advance(SweepEvery + time.Second)
	if len(f.m.kinds.cp.handles) != 0 || len(f.m.kinds.blip.handles) != 0 {
		t.Fatalf("after the sweep: %d checkpoint, %d blip handles, want 0", len(f.m.kinds.cp.handles), len(f.m.kinds.blip.handles))
	}
	wantContains(t, f.luaErr(`cp:position()`), "checkpoint 1 was deleted")
	f.noErrors()
}
