package gamemode

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// mapsDir holds the real maps package mapfile tests with (their licences
// and sources are in its README.md); the tests read them from the repo.
const mapsDir = "../mapfile/testdata"

// withMaps is a gamemode folder holding main.lua and the named real maps.
func withMaps(t testing.TB, main string, maps ...string) fstest.MapFS {
	t.Helper()
	fsys := files("main.lua", main)
	for _, name := range maps {
		data, err := os.ReadFile(filepath.Join(mapsDir, name))
		if err != nil {
			t.Fatal(err)
		}
		fsys["maps/"+name] = &fstest.MapFile{Data: data}
	}
	return fsys
}

// The real maps load through load_map with the counts package mapfile
// finds: pickups, objects and vehicles created in the world, the
// gamemode's elements returned with their attributes, removals counted.
func TestLoadMapRealMaps(t *testing.T) {
	tests := []struct {
		file                                   string
		format                                 string
		pickups, objects, vehicles, removals   int
		elements, problems, spawnpoints, check int
	}{
		{"as-area51.map", "mta", 1, 1, 5, 0, 24, 0, 0, 0},
		{"port69.map", "mta", 176, 232, 87, 0, 100, 0, 100, 0},
		{"chiliad-climb.map", "mta", 0, 6, 0, 0, 64, 0, 16, 48},
		{"death-rally-final.map", "mta", 0, 1033, 0, 0, 146, 1, 32, 48},
		{"lv-houses.pwn.txt", "samp", 0, 918, 0, 8, 0, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f := newFixture(t, withMaps(t, `
				m = dlmp.load_map("maps/`+tt.file+`")
				count = { spawnpoint = 0, checkpoint = 0 }
				for _, e in ipairs(m.elements) do
					count[e.tag] = (count[e.tag] or 0) + 1
					assert(type(e.line) == "number" and type(e.attrs) == "table")
					if e.parent then assert(m.elements[e.parent], "parent index") end
				end
				for _, p in ipairs(m.problems) do print(p.text) end
			`, tt.file))
			L := f.m.Runtime().L
			m := f.global("m").(*lua.LTable)
			nc := m.RawGetString("not_created").(*lua.LTable)
			count := f.global("count").(*lua.LTable)
			for _, c := range []struct {
				what      string
				got, want lua.LValue
			}{
				{"format", m.RawGetString("format"), lua.LString(tt.format)},
				{"pickups", lua.LNumber(m.RawGetString("pickups").(*lua.LTable).Len()), lua.LNumber(tt.pickups)},
				{"objects", lua.LNumber(m.RawGetString("objects").(*lua.LTable).Len()), lua.LNumber(tt.objects)},
				{"vehicles", lua.LNumber(m.RawGetString("vehicles").(*lua.LTable).Len()), lua.LNumber(tt.vehicles)},
				{"world objects", lua.LNumber(f.w.Objects()), lua.LNumber(tt.objects)},
				{"world vehicles", lua.LNumber(f.w.Vehicles()), lua.LNumber(tt.vehicles)},
				{"removals", nc.RawGetString("removals"), lua.LNumber(tt.removals)},
				{"elements", lua.LNumber(m.RawGetString("elements").(*lua.LTable).Len()), lua.LNumber(tt.elements)},
				{"problems", lua.LNumber(m.RawGetString("problems").(*lua.LTable).Len()), lua.LNumber(tt.problems)},
				{"spawnpoints", count.RawGetString("spawnpoint"), lua.LNumber(tt.spawnpoints)},
				{"checkpoints", count.RawGetString("checkpoint"), lua.LNumber(tt.check)},
			} {
				if !L.Equal(c.got, c.want) {
					t.Errorf("%s: got %v, want %v", c.what, c.got, c.want)
				}
			}
			n := 0
			for id := uint32(1); f.w.Pickup(id) != nil; id++ {
				n++
			}
			if n != tt.pickups {
				t.Errorf("the world holds %d pickups, want %d", n, tt.pickups)
			}
		})
	}
}

// A race map's checkpoints come back with their attributes, for the
// gamemode to build its race.
func TestLoadMapElementAttributes(t *testing.T) {
	f := newFixture(t, withMaps(t, `
		local m = dlmp.load_map("maps/chiliad-climb.map")
		assert(#m.problems == 0)
		local cp = nil
		for _, e in ipairs(m.elements) do
			if e.tag == "checkpoint" then cp = e break end
		end
		first = cp
	`, "chiliad-climb.map"))
	cp := f.global("first").(*lua.LTable)
	attrs := cp.RawGetString("attrs").(*lua.LTable)
	for _, name := range []string{"id", "posX", "posY", "posZ", "nextid", "color"} {
		if v := attrs.RawGetString(name); v.Type() != lua.LTString {
			t.Errorf("checkpoint attribute %s = %v, want a string", name, v)
		}
	}
	if line := cp.RawGetString("line"); line.(lua.LNumber) < 2 {
		t.Errorf("line = %v", line)
	}
}

// The pickups of a map give what their type says when taken, and respawn.
func TestLoadMapPickupGrants(t *testing.T) {
	f := newFixture(t, files("main.lua", `
		m = dlmp.load_map("grants.map")
		dlmp.on("pickup_interact", function(player, pickup) dlmp.take_pickup(player, pickup) end)
	`, "grants.map", `<map>
		<pickup id="h" type="health" amount="40" respawn="2000" posX="5" posY="0" posZ="3"/>
		<pickup id="a" type="armor" posX="-5" posY="0" posZ="3"/>
		<pickup id="w" type="31" amount="150" respawn="5" posX="0" posY="5" posZ="3"/>
		<pickup id="c" type="custom" model="1239" posX="0" posY="-5" posZ="3"/>
		<pickup id="far" type="health" posX="4000" posY="4000" posZ="3"/>
		<spawnpoint id="s" posX="1" posY="2" posZ="3"/>
	</map>`))
	f.lua(`
		local g = m.pickups[1]:grant(); assert(g.health == 40, "health 40")
		g = m.pickups[2]:grant(); assert(g.armor == 100, "armor defaults to 100")
		g = m.pickups[3]:grant(); assert(g.weapon == 31 and g.ammo == 150, "weapon")
		assert(m.pickups[4]:grant() == nil and m.pickups[4]:model() == 1239, "custom")
		assert(#m.pickups == 5 and #m.elements == 1 and m.elements[1].attrs.posX == "1")
	`)
	p, c := f.join()
	f.spawn(p, c, grid.Vec{Z: 3})
	f.advance(time.Second)
	f.sync(p, c, grid.Vec{Y: 5, Z: 3}, 100, 1)
	c.take()
	f.touch(p, 3)
	out := c.take()
	if g := only[*wire.GiveWeapon](out); len(g) != 1 || g[0].Weapon != 31 || g[0].Ammo != 150 {
		t.Fatalf("weapon pickup gave %v", out)
	}
	f.advance(4 * time.Second)
	if p.PickupShown(3) {
		t.Fatal("respawn=\"5\" (seconds, an old map) respawned before 5 s")
	}
	f.advance(2 * time.Second)
	if !p.PickupShown(3) {
		t.Fatal("the weapon pickup did not respawn after 5 s")
	}
	f.noErrors()
}

// A map the world refuses part of: the rest loads, the refusal is a
// problem naming the file and line.
func TestLoadMapProblems(t *testing.T) {
	f := newFixture(t, files("main.lua", `
		m = dlmp.load_map("bad.map")
		for _, p in ipairs(m.problems) do texts = (texts or "") .. p.text .. "\n" end
	`, "bad.map", `<map>
		<pickup type="health" posX="1" posY="1" posZ="1"/>
		<pickup type="health" posX="1" posY="1" posZ="9999"/>
		<object model="7" posX="0" posY="0" posZ="0"/>
	</map>`))
	f.lua(`assert(#m.pickups == 1 and #m.problems == 2, "one pickup, two problems")`)
	texts := f.global("texts").String()
	wantContains(t, texts, "bad.map:3: pickup posZ")
	wantContains(t, texts, "bad.map:4: object model")
}

// load_map creates blips, radar areas (shown to everyone), objects and
// vehicles; markers come back described; a refusal is a problem.
func TestLoadMapCreatesWorldKinds(t *testing.T) {
	const m = `<map>
    <object id="o" model="1337" posX="1" posY="2" posZ="3" rotX="0" rotY="0" rotZ="90"></object>
    <object id="far" model="1337" posX="1" posY="2" posZ="99999"></object>
    <vehicle id="v" model="411" color="3,4" posX="10" posY="0" posZ="3" rotZ="180"></vehicle>
    <blip id="b" icon="5" size="2" color="0,255,0,255" posX="50" posY="60" posZ="0"></blip>
    <radararea id="r" posX="-100" posY="-100" sizeX="200" sizeY="100" color="255,0,0,120"></radararea>
    <marker id="m" type="checkpoint" size="3" color="0,0,255,255" posX="7" posY="8" posZ="9"></marker>
</map>`
	f := newFixture(t, files("main.lua", `
		m = dlmp.load_map("world.map")
		assert(#m.objects == 1 and m.objects[1]:model() == 1337)
		assert(#m.vehicles == 1 and m.vehicles[1]:model() == 411)
		assert(#m.blips == 1 and m.blips[1]:sprite() == 5 and m.blips[1]:color() == 0x00FF00)
		assert(#m.zones == 1 and m.zones[1]:is_shown_to_all())
		local x1, y1, x2, y2 = m.zones[1]:area()
		assert(x1 == -100 and y2 == 0, "area " .. x1 .. " " .. y2)
		local mk = m.markers[1]
		assert(#m.markers == 1 and mk.kind == "checkpoint" and mk.x == 7 and mk.size == 3 and mk.color == 0x0000FF)
		assert(m.not_created.markers == 1 and m.not_created.removals == 0)
		assert(#m.problems == 1 and m.problems[1].element == "object", m.problems[1] and m.problems[1].text)
	`, "world.map", m))
	if f.w.Objects() != 1 || f.w.Vehicles() != 1 {
		t.Fatalf("world holds %d objects, %d vehicles, want 1 and 1", f.w.Objects(), f.w.Vehicles())
	}
	f.noErrors()
}
