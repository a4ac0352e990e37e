package gamemode

import (
	"math"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/grid"
	"dlmp/internal/world"
)

// Readers shared by the kinds that stand somewhere: a position, a scope
// from the options world and interior, a player option, and the getter
// every kind has (dlmp.get_label(id) → label or nil).

// vec reads x, y, z at arguments n, n+1, n+2.
func vec(L *lua.LState, n int, fn string) grid.Vec {
	return grid.Vec{X: coord(L, n, fn, "x"), Y: coord(L, n+1, fn, "y"), Z: coord(L, n+2, fn, "z")}
}

// pushVec pushes x, y, z.
func pushVec(L *lua.LState, v grid.Vec) int {
	L.Push(lua.LNumber(v.X))
	L.Push(lua.LNumber(v.Y))
	L.Push(lua.LNumber(v.Z))
	return 3
}

// scope reads the options world (0..2^31-1) and interior (0..255).
func (o *options) scope() grid.Scope {
	return grid.Scope{World: int32(o.integer("world", 0, math.MaxInt32, 0)), Interior: uint8(o.integer("interior", 0, math.MaxUint8, 0))}
}

// player reads an option that is a connected player, nil when absent.
func (m *Mode) optPlayer(o *options, key string) *world.Player {
	v := o.get(key)
	if v == lua.LNil {
		return nil
	}
	var r *ref
	if ud, ok := v.(*lua.LUserData); ok {
		r, _ = ud.Value.(*ref)
	}
	if r == nil || r.kind != m.kinds.player {
		argFail(o.L, o.fn, o.prefix+key, "must be a player, got %s", describe(v))
	}
	if m.w.Player(r.player.ID()) != r.player {
		o.L.RaiseError("player %d left", r.id)
	}
	return r.player
}

// getter is dlmp.get_<kind>(id) → handle or nil.
func getter(k *kind, fn string) lua.LGFunction {
	return func(L *lua.LState) int {
		id := uint32(integer(L, 1, fn, "id", 0, math.MaxUint32))
		if !k.live(id) {
			return push(L, lua.LNil)
		}
		return push(L, k.get(L, id))
	}
}

// color reads argument n as 0xRRGGBB.
func color(L *lua.LState, n int, fn string) uint32 {
	return uint32(integer(L, n, fn, "color", 0, 0xFFFFFF))
}
