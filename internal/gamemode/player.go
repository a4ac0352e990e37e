package gamemode

import (
	"math"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/grid"
	"dlmp/internal/world"
)

// Players: dlmp.get_player, dlmp.players and the Player methods. A player
// handle is valid from player_connect to the end of player_disconnect; a
// reused id gets a new handle.

func (m *Mode) installPlayer(L *lua.LState, t *lua.LTable) {
	m.kinds.player = newKind(L, "player", map[string]lua.LGFunction{
		"is_connected":     m.playerIsConnected,
		"position":         m.withPlayer(playerPosition),
		"world":            m.withPlayer(func(L *lua.LState, p *world.Player) int { return push(L, lua.LNumber(p.Scope().World)) }),
		"interior":         m.withPlayer(func(L *lua.LState, p *world.Player) int { return push(L, lua.LNumber(p.Scope().Interior)) }),
		"health":           m.withPlayer(func(L *lua.LState, p *world.Player) int { return push(L, lua.LNumber(p.Health())) }),
		"armor":            m.withPlayer(func(L *lua.LState, p *world.Player) int { return push(L, lua.LNumber(p.Armour())) }),
		"skin":             m.withPlayer(func(L *lua.LState, p *world.Player) int { return push(L, lua.LNumber(p.Skin())) }),
		"wanted":           m.withPlayer(func(L *lua.LState, p *world.Player) int { return push(L, lua.LNumber(p.Wanted())) }),
		"life":             m.withPlayer(playerLife),
		"waypoint":         m.withPlayer(playerWaypoint),
		"is_pickup_shown":  m.withPlayer(m.playerPickupShown),
		"spawn":            m.withPlayer(m.playerSpawn),
		"respawn":          m.withPlayer(m.playerRespawn),
		"teleport":         m.withPlayer(m.playerTeleport),
		"give_weapon":      m.withPlayer(m.playerGiveWeapon),
		"give_health":      m.withPlayer(m.playerGiveHealth),
		"give_armor":       m.withPlayer(m.playerGiveArmor),
		"set_skin":         m.withPlayer(m.playerSetSkin),
		"set_wanted":       m.withPlayer(m.playerSetWanted),
		"set_time":         m.withPlayer(m.playerSetTime),
		"set_weather":      m.withPlayer(m.playerSetWeather),
		"set_waypoint":     m.withPlayer(m.playerSetWaypoint),
		"clear_waypoint":   m.withPlayer(m.playerClearWaypoint),
		"send_chat":        m.withPlayer(m.playerSendChat),
		"kick":             m.withPlayer(m.playerKick),
		"set_edit_session": m.withPlayer(m.playerSetEditSession),
		"name":             m.withPlayer(func(L *lua.LState, p *world.Player) int { return push(L, lua.LString(p.Name())) }),
		"color":            m.withPlayer(func(L *lua.LState, p *world.Player) int { return push(L, lua.LNumber(p.Color())) }),
		"set_name":         m.withPlayer(m.playerSetName),
		"set_color":        m.withPlayer(m.playerSetColor),
	})
	t.RawSetString("get_player", L.NewFunction(m.getPlayer))
	t.RawSetString("players", L.NewFunction(m.listPlayers))
}

func push(L *lua.LState, v lua.LValue) int { L.Push(v); return 1 }

// player returns the handle of a connected player.
func (m *Mode) player(p *world.Player) *lua.LUserData {
	ud := m.players[p]
	if ud == nil {
		ud = m.kinds.player.handle(m.L, uint32(p.ID()), p)
		m.players[p] = ud
	}
	return ud
}

// livePlayer returns the player of argument n, raising if they left.
func (m *Mode) livePlayer(L *lua.LState, n int) *world.Player {
	r := refOf(L, n, m.kinds.player)
	p := r.player
	if m.w.Player(p.ID()) != p {
		L.RaiseError("player %d left", r.id)
	}
	return p
}

// withPlayer makes a method of a live player.
func (m *Mode) withPlayer(fn func(L *lua.LState, p *world.Player) int) lua.LGFunction {
	return func(L *lua.LState) int { return fn(L, m.livePlayer(L, 1)) }
}

// dlmp.get_player(id): the connected player with the id, or nil.
func (m *Mode) getPlayer(L *lua.LState) int {
	id := integer(L, 1, "get_player", "id", 0, math.MaxUint16)
	if p := m.w.Player(uint16(id)); p != nil {
		return push(L, m.player(p))
	}
	return push(L, lua.LNil)
}

// dlmp.players(): every connected player, by id.
func (m *Mode) listPlayers(L *lua.LState) int {
	t := L.NewTable()
	for id := range world.MaxPlayers {
		if p := m.w.Player(uint16(id)); p != nil {
			t.Append(m.player(p))
		}
	}
	return push(L, t)
}

func (m *Mode) playerIsConnected(L *lua.LState) int {
	r := refOf(L, 1, m.kinds.player)
	p := r.player
	return push(L, lua.LBool(m.w.Player(p.ID()) == p))
}

func playerPosition(L *lua.LState, p *world.Player) int {
	pos, ok := p.Position()
	if !ok {
		return push(L, lua.LNil)
	}
	L.Push(lua.LNumber(pos.X))
	L.Push(lua.LNumber(pos.Y))
	L.Push(lua.LNumber(pos.Z))
	return 3
}

func playerLife(L *lua.LState, p *world.Player) int {
	return push(L, lua.LString(strings.ReplaceAll(p.Life().String(), " ", "_")))
}

func playerWaypoint(L *lua.LState, p *world.Player) int {
	wp := p.Waypoint()
	if !wp.Active {
		return push(L, lua.LNil)
	}
	L.Push(lua.LNumber(wp.X))
	L.Push(lua.LNumber(wp.Y))
	return 2
}

func (m *Mode) playerPickupShown(L *lua.LState, p *world.Player) int {
	return push(L, lua.LBool(p.PickupShown(m.kinds.pickup.arg(L, 2, "is_pickup_shown"))))
}

// landing reads x, y, z at n and the options heading, interior, world at n+3.
func landing(L *lua.LState, n int, fn string, o *options) world.Landing {
	var l world.Landing
	l.Pos = grid.Vec{X: coord(L, n, fn, "x"), Y: coord(L, n+1, fn, "y"), Z: coord(L, n+2, fn, "z")}
	l.Heading = float32(o.number("heading", 0))
	l.Interior = uint8(o.integer("interior", 0, math.MaxUint8, 0))
	l.World = uint32(o.integer("world", 0, math.MaxUint32, 0))
	return l
}

// player:spawn(x, y, z [, {heading, interior, world, skin, health, armor}])
func (m *Mode) playerSpawn(L *lua.LState, p *world.Player) int {
	o := optTable(L, 5, "spawn", "heading", "interior", "world", "skin", "health", "armor")
	s := world.SpawnParams{Landing: landing(L, 2, "spawn", o)}
	s.Skin = uint16(o.integer("skin", 0, math.MaxUint16, 0))
	s.Health = uint8(o.integer("health", 0, math.MaxUint8, 100))
	s.Armour = uint8(o.integer("armor", 0, math.MaxUint8, 0))
	raise(L, m.w.Spawn(p, s))
	return 0
}

// player:respawn(x, y, z [, {heading, interior, world}])
func (m *Mode) playerRespawn(L *lua.LState, p *world.Player) int {
	o := optTable(L, 5, "respawn", "heading", "interior", "world")
	raise(L, m.w.Respawn(p, landing(L, 2, "respawn", o)))
	return 0
}

// player:teleport(x, y, z [, {heading, interior, world}])
func (m *Mode) playerTeleport(L *lua.LState, p *world.Player) int {
	o := optTable(L, 5, "teleport", "heading", "interior", "world")
	raise(L, m.w.Teleport(p, landing(L, 2, "teleport", o)))
	return 0
}

func (m *Mode) playerGiveWeapon(L *lua.LState, p *world.Player) int {
	weapon := integer(L, 2, "give_weapon", "weapon", 0, math.MaxUint8)
	ammo := integer(L, 3, "give_weapon", "ammo", 0, math.MaxUint16)
	raise(L, m.w.GiveWeapon(p, uint8(weapon), uint16(ammo)))
	return 0
}

func (m *Mode) playerGiveHealth(L *lua.LState, p *world.Player) int {
	raise(L, m.w.GiveHealth(p, uint8(integer(L, 2, "give_health", "amount", 0, math.MaxUint8))))
	return 0
}

func (m *Mode) playerGiveArmor(L *lua.LState, p *world.Player) int {
	raise(L, m.w.GiveArmor(p, uint8(integer(L, 2, "give_armor", "amount", 0, math.MaxUint8))))
	return 0
}

func (m *Mode) playerSetSkin(L *lua.LState, p *world.Player) int {
	raise(L, m.w.SetSkin(p, uint16(integer(L, 2, "set_skin", "skin", 0, math.MaxUint16))))
	return 0
}

func (m *Mode) playerSetWanted(L *lua.LState, p *world.Player) int {
	raise(L, m.w.SetWanted(p, uint8(integer(L, 2, "set_wanted", "level", 0, math.MaxUint8))))
	return 0
}

func (m *Mode) playerSetTime(L *lua.LState, p *world.Player) int {
	h := integer(L, 2, "set_time", "hours", 0, math.MaxUint8)
	mi := integer(L, 3, "set_time", "minutes", 0, math.MaxUint8)
	raiseAs(L, "set_time", m.w.SetPlayerTime(p, uint8(h), uint8(mi)))
	return 0
}

func (m *Mode) playerSetWeather(L *lua.LState, p *world.Player) int {
	raiseAs(L, "set_weather", m.w.SetPlayerWeather(p, uint8(integer(L, 2, "set_weather", "weather", 0, math.MaxUint8))))
	return 0
}

func (m *Mode) playerSetWaypoint(L *lua.LState, p *world.Player) int {
	wp := world.Waypoint{Active: true, X: coord(L, 2, "set_waypoint", "x"), Y: coord(L, 3, "set_waypoint", "y")}
	raise(L, m.w.SetWaypoint(p, wp))
	return 0
}

func (m *Mode) playerClearWaypoint(L *lua.LState, p *world.Player) int {
	raiseAs(L, "clear_waypoint", m.w.SetWaypoint(p, world.Waypoint{}))
	return 0
}

// player:send_chat(text [, color [, from]]): from is a player; the server
// by default. color is 0xRRGGBB, white by default.
func (m *Mode) playerSendChat(L *lua.LState, p *world.Player) int {
	txt := text(L, 2, "send_chat", "text")
	color := optInteger(L, 3, "send_chat", "color", 0, 0xFFFFFF, 0xFFFFFF)
	from := uint16(world.FromServer)
	if L.Get(4) != lua.LNil {
		from = m.livePlayer(L, 4).ID()
	}
	raise(L, m.w.SendChat(p, from, uint32(color), txt))
	return 0
}

func (m *Mode) playerKick(L *lua.LState, p *world.Player) int {
	m.w.Kick(p)
	return 0
}

// player:set_name(name): the name other players are shown.
func (m *Mode) playerSetName(L *lua.LState, p *world.Player) int {
	raise(L, m.w.SetPlayerName(p, text(L, 2, "set_name", "name")))
	return 0
}

// player:set_color(color): the name tag and radar color.
func (m *Mode) playerSetColor(L *lua.LState, p *world.Player) int {
	raise(L, m.w.SetPlayerColor(p, color(L, 2, "set_color")))
	return 0
}
