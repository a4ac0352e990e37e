package gamemode

import (
	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/wire"
	"dlmp/internal/world"
)

// Radar blips: dlmp.create_blip, get_blip and the Blip methods. A blip
// stands at a point or follows a player (option player). Blip ids are
// never reused; a blip on a player goes when they leave.

func (m *Mode) installBlip(L *lua.LState, t *lua.LTable) {
	live := func(id uint32) bool { return m.w.Blip(id) != nil }
	m.kinds.blip = newIDKind(L, "blip", live, map[string]idMethod{
		"position":     func(L *lua.LState, id uint32) int { return pushVec(L, m.w.Blip(id).Position()) },
		"sprite":       func(L *lua.LState, id uint32) int { return push(L, lua.LNumber(m.w.Blip(id).Params().Sprite)) },
		"color":        func(L *lua.LState, id uint32) int { return push(L, lua.LNumber(m.w.Blip(id).Params().Color)) },
		"set_position": m.blipSetPosition,
		"set_color":    m.blipSetColor,
		"delete":       m.blipDelete,
	})
	t.RawSetString("create_blip", L.NewFunction(m.createBlip))
	t.RawSetString("get_blip", L.NewFunction(getter(m.kinds.blip, "get_blip")))
}

// dlmp.create_blip(x, y, z [, {sprite, color, size, pulse, short_range,
// draw_distance, world, interior, player}]) → blip.
func (m *Mode) createBlip(L *lua.LState) int {
	const fn = "create_blip"
	o := optTable(L, 4, fn, "sprite", "color", "size", "pulse", "short_range", "draw_distance", "world", "interior", "player")
	bp := world.BlipParams{
		Pos:          vec(L, 1, fn),
		Sprite:       uint8(o.integer("sprite", 0, 255, 0)),
		Color:        uint32(o.integer("color", 0, 0xFFFFFF, 0xFF0000)),
		Size:         float32(o.number("size", 1)),
		DrawDistance: float32(o.number("draw_distance", 0)),
		Scope:        o.scope(),
	}
	if o.boolean("pulse", false) {
		bp.Flags |= wire.BlipPulse
	}
	if o.boolean("short_range", false) {
		bp.Flags |= wire.BlipShortRange
	}
	if p := m.optPlayer(o, "player"); p != nil {
		bp.AttachKind, bp.AttachID = wire.AttachPlayer, uint32(p.ID())
	}
	id, err := m.w.CreateBlip(bp)
	raise(L, err)
	return push(L, m.kinds.blip.get(L, id))
}

func (m *Mode) blipSetPosition(L *lua.LState, id uint32) int {
	bp := m.w.Blip(id).Params()
	bp.Pos = vec(L, 2, "set_position")
	raiseAs(L, "set_position", m.w.SetBlip(id, bp))
	return 0
}

func (m *Mode) blipSetColor(L *lua.LState, id uint32) int {
	bp := m.w.Blip(id).Params()
	bp.Color = color(L, 2, "set_color")
	raiseAs(L, "set_color", m.w.SetBlip(id, bp))
	return 0
}

func (m *Mode) blipDelete(L *lua.LState, id uint32) int {
	err := m.w.DeleteBlip(id)
	m.kinds.blip.forget(id)
	raiseAs(L, "delete", err)
	return 0
}
