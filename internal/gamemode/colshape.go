package gamemode

import (
	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/grid"
	"dlmp/internal/world"
)

// Colshapes: dlmp.create_col_sphere, create_col_tube, create_col_cuboid
// (MTA's createColSphere, createColTube, createColCuboid), get_colshape
// and the Colshape methods. The server raises colshape_enter and
// colshape_leave; the outline is shown only to the players
// colshape:show(player) names. Colshape ids are never reused.

func (m *Mode) installColshape(L *lua.LState, t *lua.LTable) {
	live := func(id uint32) bool { return m.w.Colshape(id) != nil }
	m.kinds.colshape = newIDKind(L, "colshape", live, map[string]idMethod{
		"position":     func(L *lua.LState, id uint32) int { return pushVec(L, m.w.Colshape(id).Center()) },
		"is_inside":    m.colshapeInside,
		"set_position": m.colshapeSetPosition,
		"show":         func(L *lua.LState, id uint32) int { return m.colshapeShow(L, id, true) },
		"hide":         func(L *lua.LState, id uint32) int { return m.colshapeShow(L, id, false) },
		"delete":       m.colshapeDelete,
	})
	t.RawSetString("create_col_sphere", L.NewFunction(m.createColSphere))
	t.RawSetString("create_col_tube", L.NewFunction(m.createColTube))
	t.RawSetString("create_col_cuboid", L.NewFunction(m.createColCuboid))
	t.RawSetString("get_colshape", L.NewFunction(getter(m.kinds.colshape, "get_colshape")))
}

func (m *Mode) colshape(id uint32) *lua.LUserData { return m.kinds.colshape.get(m.L, id) }

func (m *Mode) newColshape(L *lua.LState, fn string, cp world.ColshapeParams, opt int) int {
	cp.Scope = optTable(L, opt, fn, "world", "interior").scope()
	id, err := m.w.CreateColshape(cp)
	raiseAs(L, fn, err)
	return push(L, m.colshape(id))
}

// dlmp.create_col_sphere(x, y, z, radius [, {world, interior}]) → colshape.
func (m *Mode) createColSphere(L *lua.LState) int {
	const fn = "create_col_sphere"
	return m.newColshape(L, fn, world.ColshapeParams{Form: world.FormSphere, A: vec(L, 1, fn), B: grid.Vec{X: coord(L, 4, fn, "radius")}}, 5)
}

// dlmp.create_col_tube(x, y, z, radius, height [, options]): a vertical
// cylinder standing on x, y, z.
func (m *Mode) createColTube(L *lua.LState) int {
	const fn = "create_col_tube"
	b := grid.Vec{X: coord(L, 4, fn, "radius"), Y: coord(L, 5, fn, "height")}
	return m.newColshape(L, fn, world.ColshapeParams{Form: world.FormCylinder, A: vec(L, 1, fn), B: b}, 6)
}

// dlmp.create_col_cuboid(x, y, z, width, depth, height [, options]): the
// box from x, y, z to x+width, y+depth, z+height.
func (m *Mode) createColCuboid(L *lua.LState) int {
	const fn = "create_col_cuboid"
	a := vec(L, 1, fn)
	b := grid.Vec{X: a.X + coord(L, 4, fn, "width"), Y: a.Y + coord(L, 5, fn, "depth"), Z: a.Z + coord(L, 6, fn, "height")}
	return m.newColshape(L, fn, world.ColshapeParams{Form: world.FormBox, A: a, B: b}, 7)
}

// colshape:is_inside(player): whether the server counts them inside.
func (m *Mode) colshapeInside(L *lua.LState, id uint32) int {
	return push(L, lua.LBool(m.livePlayer(L, 2).Inside(id)))
}

// colshape:set_position(x, y, z) moves the form: the sphere's center, the
// tube's base, the cuboid's min corner (its size kept).
func (m *Mode) colshapeSetPosition(L *lua.LState, id uint32) int {
	cp := m.w.Colshape(id).Params()
	to := vec(L, 2, "set_position")
	if cp.Form == world.FormBox {
		cp.B = grid.Vec{X: cp.B.X - cp.A.X + to.X, Y: cp.B.Y - cp.A.Y + to.Y, Z: cp.B.Z - cp.A.Z + to.Z}
	}
	cp.A = to
	raiseAs(L, "set_position", m.w.SetColshape(id, cp))
	return 0
}

// colshape:show(player), colshape:hide(player): the outline.
func (m *Mode) colshapeShow(L *lua.LState, id uint32, show bool) int {
	p := m.livePlayer(L, 2)
	if show {
		raiseAs(L, "show", m.w.ShowColshape(id, p))
	} else {
		raiseAs(L, "hide", m.w.HideColshape(id, p))
	}
	return 0
}

func (m *Mode) colshapeDelete(L *lua.LState, id uint32) int {
	err := m.w.DeleteColshape(id)
	m.kinds.colshape.forget(id)
	raiseAs(L, "delete", err)
	return 0
}
