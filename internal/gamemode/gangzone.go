package gamemode

import (
	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/world"
)

// Gang zones (radar areas): dlmp.create_gang_zone, get_gang_zone and the
// GangZone methods. A zone is created hidden: zone:show() shows it to
// everyone, zone:show(player) to one player. Zone ids are never reused.

func (m *Mode) installGangZone(L *lua.LState, t *lua.LTable) {
	live := func(id uint32) bool { return m.w.GangZone(id) != nil }
	m.kinds.zone = newIDKind(L, "gang_zone", live, map[string]idMethod{
		"area":            m.zoneArea,
		"is_shown_to_all": func(L *lua.LState, id uint32) int { return push(L, lua.LBool(m.w.GangZone(id).ShownToAll())) },
		"is_flashing":     func(L *lua.LState, id uint32) int { return push(L, lua.LBool(m.w.GangZone(id).Params().Flashing)) },
		"show":            func(L *lua.LState, id uint32) int { return m.zoneShow(L, id, true) },
		"hide":            func(L *lua.LState, id uint32) int { return m.zoneShow(L, id, false) },
		"set_color":       m.zoneSetColor,
		"set_flashing":    m.zoneSetFlashing,
		"delete":          m.zoneDelete,
	})
	t.RawSetString("create_gang_zone", L.NewFunction(m.createGangZone))
	t.RawSetString("get_gang_zone", L.NewFunction(getter(m.kinds.zone, "get_gang_zone")))
}

// dlmp.create_gang_zone(min_x, min_y, max_x, max_y [, {color, alpha,
// flashing, flash_color, world, interior}]) → gang zone, hidden.
func (m *Mode) createGangZone(L *lua.LState) int {
	const fn = "create_gang_zone"
	o := optTable(L, 5, fn, "color", "alpha", "flashing", "flash_color", "world", "interior")
	zp := world.ZoneParams{
		Min:        [2]float32{coord(L, 1, fn, "min_x"), coord(L, 2, fn, "min_y")},
		Max:        [2]float32{coord(L, 3, fn, "max_x"), coord(L, 4, fn, "max_y")},
		Color:      uint32(o.integer("color", 0, 0xFFFFFF, 0xFFFFFF)),
		Alpha:      uint8(o.integer("alpha", 0, 255, 128)),
		Flashing:   o.boolean("flashing", false),
		FlashColor: uint32(o.integer("flash_color", 0, 0xFFFFFF, 0xFF0000)),
		Scope:      o.scope(),
	}
	id, err := m.w.CreateGangZone(zp)
	raise(L, err)
	return push(L, m.kinds.zone.get(L, id))
}

// zone:area() → min_x, min_y, max_x, max_y.
func (m *Mode) zoneArea(L *lua.LState, id uint32) int {
	zp := m.w.GangZone(id).Params()
	for _, f := range []float32{zp.Min[0], zp.Min[1], zp.Max[0], zp.Max[1]} {
		L.Push(lua.LNumber(f))
	}
	return 4
}

// zone:show([player]), zone:hide([player]): to everyone without a player.
func (m *Mode) zoneShow(L *lua.LState, id uint32, show bool) int {
	var p *world.Player
	if L.Get(2) != lua.LNil {
		p = m.livePlayer(L, 2)
	}
	if show {
		raiseAs(L, "show", m.w.ShowGangZone(id, p))
	} else {
		raiseAs(L, "hide", m.w.HideGangZone(id, p))
	}
	return 0
}

// zone:set_color(color [, alpha]).
func (m *Mode) zoneSetColor(L *lua.LState, id uint32) int {
	zp := m.w.GangZone(id).Params()
	zp.Color = color(L, 2, "set_color")
	zp.Alpha = uint8(optInteger(L, 3, "set_color", "alpha", 0, 255, int64(zp.Alpha)))
	raiseAs(L, "set_color", m.w.SetGangZone(id, zp))
	return 0
}

// zone:set_flashing(flashing [, flash_color]).
func (m *Mode) zoneSetFlashing(L *lua.LState, id uint32) int {
	zp := m.w.GangZone(id).Params()
	zp.Flashing = boolean(L, 2, "set_flashing", "flashing")
	zp.FlashColor = uint32(optInteger(L, 3, "set_flashing", "flash_color", 0, 0xFFFFFF, int64(zp.FlashColor)))
	raiseAs(L, "set_flashing", m.w.SetGangZone(id, zp))
	return 0
}

func (m *Mode) zoneDelete(L *lua.LState, id uint32) int {
	err := m.w.DeleteGangZone(id)
	m.kinds.zone.forget(id)
	raiseAs(L, "delete", err)
	return 0
}
