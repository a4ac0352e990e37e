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

// emit raises event when the gamemode listens to it; args builds the
// arguments only then.
func (m *Mode) emit(event string, args func() []lua.LValue) {
	if m.rt == nil || !m.rt.Has(event) {
		return
	}
	m.rt.Emit(event, args()...)
}

func (m *Mode) PlayerJoin(p *world.Player) {
	m.emit("player_connect", func() []lua.LValue { return []lua.LValue{m.player(p)} })
}

func (m *Mode) PlayerLeave(p *world.Player, reason uint8) {
	m.emit("player_disconnect", func() []lua.LValue {
		return []lua.LValue{m.player(p), lua.LString(wire.ReasonName(reason))}
	})
	delete(m.players, p) // the world forgets them when this returns
}

func (m *Mode) PlayerSpawn(p *world.Player) {
	m.emit("player_spawn", func() []lua.LValue { return []lua.LValue{m.player(p)} })
}

func (m *Mode) PlayerDeath(p *world.Player) {
	m.emit("player_death", func() []lua.LValue { return []lua.LValue{m.player(p)} })
}

func (m *Mode) Chat(p *world.Player, txt string) {
	m.emit("chat", func() []lua.LValue { return []lua.LValue{m.player(p), lua.LString(txt)} })
}

func (m *Mode) PickupInteract(e world.PickupInteraction) {
	m.emit("pickup_interact", func() []lua.LValue {
		return []lua.LValue{m.player(e.Player), m.pickup(e.Pickup), lua.LString(e.Behavior.String()), lua.LNumber(e.Model)}
	})
}

func (m *Mode) PlayerWaypoint(p *world.Player, wp world.Waypoint) {
	m.emit("player_waypoint", func() []lua.LValue {
		if !wp.Active {
			return []lua.LValue{m.player(p), lua.LNil, lua.LNil}
		}
		return []lua.LValue{m.player(p), lua.LNumber(wp.X), lua.LNumber(wp.Y)}
	})
}
