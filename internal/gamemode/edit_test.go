package gamemode

import (
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// TestEntityEditFromLua: the session opened from Lua covers pickups; the
// entity_edit handler accepts an edit above ground and refuses one below,
// which leaves the pickup where it was.
func TestEntityEditFromLua(t *testing.T) {
	f := newFixture(t, files("main.lua", `
		edits = 0
		dlmp.on("player_spawn", function(player) player:set_edit_session({ "pickup" }) end)
		dlmp.on("entity_edit", function(player, kind, id, ax, ay, az)
			edits = edits + 1
			assert(kind == "pickup" and player.id == 0)
			return az > 0
		end)
		pickup = dlmp.create_pickup(1240, 10, 0, 3)
	`))
	p, c := f.join()
	f.spawn(p, c, grid.Vec{X: 0, Y: 0, Z: 3})
	f.advance(100 * time.Millisecond)
	f.lua(`assert(#dlmp.players() == 1)`)
	if s := p.EditSession(); s.Kinds != wire.EditPickups {
		t.Fatalf("edit session %+v, want pickups", s)
	}
	pk := f.w.Pickup(1)
	edit := func(z float32) {
		f.w.Packet(p, &wire.EntityEdit{Token: 1, EventID: 1, Kind: wire.EditPickup, EntityID: 1, Rev: f.w.Pickup(1).Rev(), AX: 12, AY: 0, AZ: z}, f.now)
	}
	edit(-5) // refused by the handler
	if got := pk.Position(); got.X != 10 {
		t.Fatalf("a refused edit moved the pickup to %v", got)
	}
	edit(4) // accepted
	if got := f.w.Pickup(1).Position(); got.X != 12 || got.Z != 4 {
		t.Fatalf("an accepted edit left the pickup at %v", got)
	}
	f.lua(`assert(edits == 2, "both edits reached Lua")`)
	wantContains(t, f.luaErr(`dlmp.get_player(0):set_edit_session({ "car" })`), `"car" is not`)
	f.noErrors()
}
