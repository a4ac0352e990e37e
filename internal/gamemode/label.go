package gamemode

import (
	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/wire"
	"dlmp/internal/world"
)

// Labels (3D text): dlmp.create_label, get_label and the Label methods.
// A label stands at a point or is attached to a player (option player: x,
// y, z are then the offset from them); option viewer shows it to one
// player only. Label ids are never reused.

func (m *Mode) installLabel(L *lua.LState, t *lua.LTable) {
	live := func(id uint32) bool { return m.w.Label(id) != nil }
	m.kinds.label = newIDKind(L, "label", live, map[string]idMethod{
		"text":         func(L *lua.LState, id uint32) int { return push(L, lua.LString(m.w.Label(id).Params().Text)) },
		"color":        func(L *lua.LState, id uint32) int { return push(L, lua.LNumber(m.w.Label(id).Params().Color)) },
		"position":     func(L *lua.LState, id uint32) int { return pushVec(L, m.w.Label(id).Params().Pos) },
		"set_text":     m.labelSetText,
		"set_color":    m.labelSetColor,
		"set_position": m.labelSetPosition,
		"delete":       m.labelDelete,
	})
	t.RawSetString("create_label", L.NewFunction(m.createLabel))
	t.RawSetString("get_label", L.NewFunction(getter(m.kinds.label, "get_label")))
}

// dlmp.create_label(text, x, y, z [, {color, draw_distance, world,
// interior, player, viewer}]) → label.
func (m *Mode) createLabel(L *lua.LState) int {
	const fn = "create_label"
	o := optTable(L, 5, fn, "color", "draw_distance", "world", "interior", "player", "viewer")
	lp := world.LabelParams{
		Text:         text(L, 1, fn, "text"),
		Pos:          vec(L, 2, fn),
		Color:        uint32(o.integer("color", 0, 0xFFFFFF, 0xFFFFFF)),
		DrawDistance: float32(o.number("draw_distance", 30)),
		Scope:        o.scope(),
		Viewer:       m.optPlayer(o, "viewer"),
	}
	if p := m.optPlayer(o, "player"); p != nil {
		lp.AttachKind, lp.AttachID = wire.AttachPlayer, uint32(p.ID())
	}
	id, err := m.w.CreateLabel(lp)
	raise(L, err)
	return push(L, m.kinds.label.get(L, id))
}

// setLabel changes one part of a label's parameters.
func (m *Mode) setLabel(L *lua.LState, name string, id uint32, change func(*world.LabelParams)) int {
	lp := m.w.Label(id).Params()
	change(&lp)
	raiseAs(L, name, m.w.SetLabel(id, lp))
	return 0
}

func (m *Mode) labelSetText(L *lua.LState, id uint32) int {
	s := text(L, 2, "set_text", "text")
	return m.setLabel(L, "set_text", id, func(lp *world.LabelParams) { lp.Text = s })
}

func (m *Mode) labelSetColor(L *lua.LState, id uint32) int {
	c := color(L, 2, "set_color")
	return m.setLabel(L, "set_color", id, func(lp *world.LabelParams) { lp.Color = c })
}

func (m *Mode) labelSetPosition(L *lua.LState, id uint32) int {
	v := vec(L, 2, "set_position")
	return m.setLabel(L, "set_position", id, func(lp *world.LabelParams) { lp.Pos = v })
}

func (m *Mode) labelDelete(L *lua.LState, id uint32) int {
	err := m.w.DeleteLabel(id)
	m.kinds.label.forget(id)
	raiseAs(L, "delete", err)
	return 0
}
