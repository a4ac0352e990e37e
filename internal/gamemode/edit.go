package gamemode

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/wire"
	"dlmp/internal/world"
)

// Edit sessions: player:set_edit_session(kinds [, id]) opens one (kinds is
// a list of "pickup", "gang_zone", "colshape", "object"; an empty list or
// nil closes it), and the entity_edit event decides each edit: a handler
// returning true applies it; otherwise it is refused and the editor's copy
// corrected.

// editKinds are the Lua names of the editable kinds, by wire kind.
var editKinds = [...]string{
	wire.EditPickup:   "pickup",
	wire.EditZone:     "gang_zone",
	wire.EditColshape: "colshape",
	wire.EditObject:   "object",
}

// player:set_edit_session(kinds [, id])
func (m *Mode) playerSetEditSession(L *lua.LState, p *world.Player) int {
	var s world.EditSession
	if t, ok := L.Get(2).(*lua.LTable); ok {
		var bad string
		t.ForEach(func(_, v lua.LValue) {
			name := lua.LVAsString(v)
			for k, n := range editKinds {
				if n == name {
					s.Kinds |= 1 << k
					return
				}
			}
			bad = fmt.Sprintf("%q", v.String())
		})
		if bad != "" {
			L.ArgError(2, "set_edit_session: kinds: "+bad+` is not "pickup", "gang_zone", "colshape" or "object"`)
		}
	} else if L.Get(2) != lua.LNil {
		L.ArgError(2, "set_edit_session: kinds must be a list of kind names, or nil to close the session")
	}
	s.EntityID = uint32(optInteger(L, 3, "set_edit_session", "id", 0, 1<<32-1, 0))
	raise(L, m.w.SetEditSession(p, s))
	return 0
}

// EntityEdit raises entity_edit(player, kind, id, ax, ay, az, bx, by, bz)
// and applies the edit when a handler returns true. It is raised only by a
// client's packet, never from inside a Lua callback; were it, it would be
// refused, since a decision cannot wait for the callback to return.
func (m *Mode) EntityEdit(e world.Edit) bool {
	if m.rt == nil || m.depth > 0 || !m.listens("entity_edit") {
		return false
	}
	m.depth++
	yes := m.rt.Decide("entity_edit", m.player(e.Player), lua.LString(editKinds[e.Kind]), lua.LNumber(e.ID),
		lua.LNumber(e.A.X), lua.LNumber(e.A.Y), lua.LNumber(e.A.Z), lua.LNumber(e.B.X), lua.LNumber(e.B.Y), lua.LNumber(e.B.Z))
	m.drain()
	m.depth--
	return yes
}
