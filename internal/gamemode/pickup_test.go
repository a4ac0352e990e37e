package gamemode

import (
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// The collectible flow of world.md, from Lua through the real VM and
// world: a health pickup is refused while the player is at full health
// (nothing consumed, nothing granted, the interaction fires again) and
// collected with a grant after the player took damage.
func TestCollectibleFlowRefusesAtFullHealth(t *testing.T) {
	f := newFixture(t, files("main.lua", `
		interactions, collected = 0, 0
		heart = dlmp.create_pickup(1240, 10, 0, 3, { respawn = 5000 })
		dlmp.on("pickup_interact", function(player, pickup, behavior, model)
			assert(pickup == heart, "the handle of the pickup")
			assert(behavior == "collectible" and model == 1240)
			interactions = interactions + 1
			if player:health() >= 100 then return end -- refuse: nothing to heal
			dlmp.collect_pickup(pickup)
			player:give_health(100 - player:health())
			collected = collected + 1
		end)
	`))
	p, c := f.join()
	f.spawn(p, c, grid.Vec{X: 9, Z: 3})
	f.advance(tick)
	id := uint32(f.global("heart").(*lua.LUserData).Value.(*ref).id)
	if !p.PickupShown(id) {
		t.Fatal("the pickup is not streamed to the player")
	}
	c.take()

	for range 2 { // the client re-touches while it stays
		f.touch(p, id)
	}
	if got := f.global("interactions"); got != lua.LNumber(2) {
		t.Fatalf("interactions at full health = %v, want 2", got)
	}
	if out := c.take(); len(only[*wire.GiveHealth](out)) != 0 || len(only[*wire.PickupSync](out)) != 0 {
		t.Fatalf("a refused interaction sent %v", out)
	}
	if !f.w.Pickup(id).Active() {
		t.Fatal("a refused interaction consumed the pickup")
	}

	f.advance(time.Second)
	f.sync(p, c, grid.Vec{X: 9, Z: 3}, 40, 1) // damage: health 40
	f.touch(p, id)
	out := c.take()
	gh := only[*wire.GiveHealth](out)
	if len(gh) != 1 || gh[0].Amount != 60 {
		t.Fatalf("GiveHealth after damage = %v, want one of 60", gh)
	}
	if ps := only[*wire.PickupSync](out); len(ps) != 1 || ps[0].PickupID != id || ps[0].Active != 0 {
		t.Fatalf("PickupSync after collect = %v, want a remove of %d", ps, id)
	}
	if got := f.global("collected"); got != lua.LNumber(1) {
		t.Fatalf("collected = %v, want 1", got)
	}
	f.touch(p, id) // inactive: refused by the world, no event
	if got := f.global("interactions"); got != lua.LNumber(3) {
		t.Fatalf("interactions = %v after a touch of a collected pickup, want 3", got)
	}
	f.advance(5 * time.Second)
	if !p.PickupShown(id) {
		t.Fatal("the pickup did not respawn after 5 s")
	}
	f.noErrors()
}

func TestTakePickupGrants(t *testing.T) {
	f := newFixture(t, files("main.lua", `
		health = dlmp.create_pickup(1240, 5, 0, 3, { grant = { health = 25 }, respawn = 1000 })
		armor = dlmp.create_pickup(1242, -5, 0, 3, { grant = { armor = 50 } })
		m4 = dlmp.create_pickup(356, 0, 5, 3, { grant = { weapon = 31, ammo = 200 } })
		plain = dlmp.create_pickup(1239, 0, -5, 3)
		results = {}
		dlmp.on("pickup_interact", function(player, pickup)
			if pickup == plain then
				results[#results + 1] = tostring(pcall(dlmp.take_pickup, player, pickup))
				return
			end
			results[#results + 1] = tostring(dlmp.take_pickup(player, pickup))
		end)
	`))
	p, c := f.join()
	f.spawn(p, c, grid.Vec{Z: 3})
	f.advance(tick)
	ids := map[string]uint32{}
	for _, n := range []string{"health", "armor", "m4", "plain"} {
		ids[n] = f.global(n).(*lua.LUserData).Value.(*ref).id
	}
	c.take()
	step := func(name string, at grid.Vec) []wire.Packet {
		f.advance(time.Second)
		f.sync(p, c, at, p.Health(), 1)
		f.touch(p, ids[name])
		return c.take()
	}
	step("health", grid.Vec{X: 5, Z: 3})                                   // full health: false
	out := step("armor", grid.Vec{X: -5, Z: 3})                            // armor 0: granted
	if g := only[*wire.GiveArmor](out); len(g) != 1 || g[0].Amount != 50 { // once
		t.Fatalf("GiveArmor = %v", g)
	}
	out = step("m4", grid.Vec{Y: 5, Z: 3})
	if g := only[*wire.GiveWeapon](out); len(g) != 1 || g[0].Weapon != 31 || g[0].Ammo != 200 {
		t.Fatalf("GiveWeapon = %v", g)
	}
	step("plain", grid.Vec{Y: -5, Z: 3})
	got := []string{}
	f.global("results").(*lua.LTable).ForEach(func(_, v lua.LValue) { got = append(got, v.String()) })
	want := []string{"false", "true", "true", "false"}
	if len(got) != len(want) {
		t.Fatalf("results %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("results %v, want %v", got, want)
		}
	}
	if f.w.Pickup(ids["armor"]) != nil {
		t.Fatal("an armor pickup without respawn was not deleted when taken")
	}
	f.lua(`assert(not armor:exists()); assert(dlmp.get_pickup(armor.id) == nil)`)
	if msg := f.luaErr(`armor:position()`); msg == "" {
		t.Fatal("no error")
	}
	f.noErrors()
}

func TestPickupMethods(t *testing.T) {
	f := newFixture(t, files("main.lua", `
		pk = dlmp.create_pickup(1240, 1, 2, 3, { scale = 2, highlight = false, behavior = "static", respawn = 2000 })
	`))
	p, c := f.join()
	f.spawn(p, c, grid.Vec{Z: 3})
	f.advance(tick)
	c.take()
	f.lua(`
		assert(pk.id == 1 and dlmp.get_pickup(1) == pk and dlmp.get_pickup(99) == nil)
		assert(tostring(pk) == "pickup 1")
		local x, y, z = pk:position()
		assert(x == 1 and y == 2 and z == 3, "position")
		assert(pk:model() == 1240 and pk:is_active() and pk:exists())
		assert(pk:grant() == nil)
		assert(dlmp.get_player(0):is_pickup_shown(pk) and dlmp.get_player(0):is_pickup_shown(pk.id))
		pk:set_position(4, 5, 6)
	`)
	ps := only[*wire.PickupSync](c.take())
	if len(ps) != 1 || ps[0].X != 4 || ps[0].Rev != 2 || ps[0].Scale != 2 || ps[0].Highlight != 0 {
		t.Fatalf("after set_position: %+v, want one show at x 4 rev 2 scale 2 highlight 0", ps)
	}
	f.lua(`pk:collect(); assert(not pk:is_active())`)
	if ps := only[*wire.PickupSync](c.take()); len(ps) != 1 || ps[0].Active != 0 {
		t.Fatalf("after collect: %+v", ps)
	}
	f.advance(2 * time.Second)
	f.lua(`assert(pk:is_active()); pk:delete(); assert(not pk:exists())`)
	for _, src := range []string{`pk:position()`, `pk:set_position(1, 1, 1)`, `pk:collect()`, `dlmp.collect_pickup(pk)`} {
		wantContains(t, f.luaErr(src), "pickup 1 was deleted")
	}
	wantContains(t, f.luaErr(`dlmp.collect_pickup(1)`), "collect_pickup: pickup: no pickup 1")
	wantContains(t, f.luaErr(`pk.id = 3`), "read-only")
	f.lua(`assert(pk.id == 1, "the id of a deleted pickup stays readable")`)
}
