package gamemode

import (
	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/wire"
	"dlmp/internal/world"
)

// The world's events, raised in Lua (dlmp.on). Handlers get positional
// arguments, entities as handles; an event with no handler costs no
// allocation.
//
//	player_connect(player)
//	player_disconnect(player, reason)      reason: "quit", "timeout", "kicked", ...
//	player_spawn(player)
//	player_death(player)
//	chat(player, text)
//	pickup_interact(player, pickup, behavior, model)   behavior: "collectible" or "static"
//	player_waypoint(player, x, y)          x, y nil: the waypoint was removed
//	shutdown()

// listens reports whether the gamemode has a handler for event: the
// arguments are built only then.
func (m *Mode) listens(event string) bool { return m.rt != nil && m.rt.Has(event) }

func (m *Mode) PlayerJoin(p *world.Player) {
	if m.listens("player_connect") {
		m.rt.Emit("player_connect", m.player(p))
	}
}

func (m *Mode) PlayerLeave(p *world.Player, reason uint8) {
	if m.listens("player_disconnect") {
		m.rt.Emit("player_disconnect", m.player(p), lua.LString(wire.ReasonName(reason)))
	}
	delete(m.players, p) // the world forgets them when this returns
}

func (m *Mode) PlayerSpawn(p *world.Player) {
	if m.listens("player_spawn") {
		m.rt.Emit("player_spawn", m.player(p))
	}
}

func (m *Mode) PlayerDeath(p *world.Player) {
	if m.listens("player_death") {
		m.rt.Emit("player_death", m.player(p))
	}
}

func (m *Mode) Chat(p *world.Player, txt string) {
	if m.listens("chat") {
		m.rt.Emit("chat", m.player(p), lua.LString(txt))
	}
}

func (m *Mode) PickupInteract(e world.PickupInteraction) {
	if m.listens("pickup_interact") {
		m.rt.Emit("pickup_interact", m.player(e.Player), m.pickup(e.Pickup), behaviorName(e.Behavior), lua.LNumber(e.Model))
	}
}

func (m *Mode) PlayerWaypoint(p *world.Player, wp world.Waypoint) {
	if !m.listens("player_waypoint") {
		return
	}
	if !wp.Active {
		m.rt.Emit("player_waypoint", m.player(p), lua.LNil, lua.LNil)
		return
	}
	m.rt.Emit("player_waypoint", m.player(p), lua.LNumber(wp.X), lua.LNumber(wp.Y))
}

// Behavior names, made once: an LString in an interface allocates.
var (
	collectibleName lua.LValue = lua.LString(world.Collectible.String())
	staticName      lua.LValue = lua.LString(world.Static.String())
)

func behaviorName(b world.Behavior) lua.LValue {
	if b == world.Static {
		return staticName
	}
	return collectibleName
}
