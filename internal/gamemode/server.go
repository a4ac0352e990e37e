package gamemode

import (
	"math"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/grid"
	"dlmp/internal/world"
)

// World-wide commands: chat to everyone, garage doors, the clock, the
// weather and explosions.

func (m *Mode) installServer(L *lua.LState, t *lua.LTable) {
	for name, fn := range map[string]lua.LGFunction{
		"broadcast_chat":   m.broadcastChat,
		"set_garage_open":  m.setGarageOpen,
		"is_garage_open":   m.isGarageOpen,
		"set_weather":      m.setWeather,
		"get_weather":      m.getWeather,
		"freeze_clock":     m.freezeClock,
		"run_clock":        m.runClock,
		"real_clock":       m.realClock,
		"get_clock":        m.getClock,
		"create_explosion": m.createExplosion,
	} {
		t.RawSetString(name, L.NewFunction(fn))
	}
}

// dlmp.broadcast_chat(text [, color [, from]])
func (m *Mode) broadcastChat(L *lua.LState) int {
	txt := text(L, 1, "broadcast_chat", "text")
	color := optInteger(L, 2, "broadcast_chat", "color", 0, 0xFFFFFF, 0xFFFFFF)
	from := uint16(world.FromServer)
	if L.Get(3) != lua.LNil {
		from = m.livePlayer(L, 3).ID()
	}
	raise(L, m.w.BroadcastChat(from, uint32(color), txt))
	return 0
}

// dlmp.set_garage_open(id, open)
func (m *Mode) setGarageOpen(L *lua.LState) int {
	id := integer(L, 1, "set_garage_open", "id", math.MinInt32, math.MaxInt32)
	raise(L, m.w.SetGarageOpen(int(id), boolean(L, 2, "set_garage_open", "open")))
	return 0
}

// dlmp.is_garage_open(id) → bool
func (m *Mode) isGarageOpen(L *lua.LState) int {
	id := integer(L, 1, "is_garage_open", "id", 0, world.Garages-1)
	return push(L, lua.LBool(m.w.GarageOpen(int(id))))
}

func (m *Mode) setWeather(L *lua.LState) int {
	raise(L, m.w.SetWeather(uint8(integer(L, 1, "set_weather", "weather", 0, math.MaxUint8))))
	return 0
}

func (m *Mode) getWeather(L *lua.LState) int { return push(L, lua.LNumber(m.w.Weather())) }

// dlmp.freeze_clock(hours, minutes)
func (m *Mode) freezeClock(L *lua.LState) int {
	h := integer(L, 1, "freeze_clock", "hours", 0, math.MaxUint8)
	mi := integer(L, 2, "freeze_clock", "minutes", 0, math.MaxUint8)
	raise(L, m.w.FreezeClock(uint8(h), uint8(mi)))
	return 0
}

// dlmp.run_clock(hours, minutes, minute_ms)
func (m *Mode) runClock(L *lua.LState) int {
	h := integer(L, 1, "run_clock", "hours", 0, math.MaxUint8)
	mi := integer(L, 2, "run_clock", "minutes", 0, math.MaxUint8)
	ms := integer(L, 3, "run_clock", "minute_ms", 0, math.MaxUint32)
	raise(L, m.w.RunClock(uint8(h), uint8(mi), uint32(ms)))
	return 0
}

// dlmp.real_clock(utc_offset_minutes)
func (m *Mode) realClock(L *lua.LState) int {
	raise(L, m.w.RealClock(int(integer(L, 1, "real_clock", "utc_offset_minutes", math.MinInt32, math.MaxInt32))))
	return 0
}

// dlmp.get_clock() → hours, minutes, running, minute_ms
func (m *Mode) getClock(L *lua.LState) int {
	h, mi, running, ms := m.w.Clock()
	L.Push(lua.LNumber(h))
	L.Push(lua.LNumber(mi))
	L.Push(lua.LBool(running))
	L.Push(lua.LNumber(ms))
	return 4
}

// dlmp.create_explosion(x, y, z, type, radius [, {world, interior}])
func (m *Mode) createExplosion(L *lua.LState) int {
	const fn = "create_explosion"
	o := optTable(L, 6, fn, "world", "interior")
	pos := grid.Vec{X: coord(L, 1, fn, "x"), Y: coord(L, 2, fn, "y"), Z: coord(L, 3, fn, "z")}
	typ := integer(L, 4, fn, "type", 0, math.MaxUint8)
	radius := float32(number(L, 5, fn, "radius"))
	scope := grid.Scope{World: int32(o.integer("world", 0, math.MaxInt32, 0)), Interior: uint8(o.integer("interior", 0, math.MaxUint8, 0))}
	raise(L, m.w.CreateExplosion(scope, pos, uint8(typ), radius))
	return 0
}
