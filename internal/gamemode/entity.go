package gamemode

import (
	"strconv"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/world"
)

// kind is one entity type as Lua sees it: a metatable whose __index gives
// the `id` field and the methods, and __tostring "pickup 12".
type kind struct {
	name    string
	mt      *lua.LTable
	methods *lua.LTable
}

// kinds holds every kind the module installed.
type kinds struct {
	player *kind
	pickup *kind
}

// ref is the value inside an entity's userdata.
type ref struct {
	kind   *kind
	id     uint32
	player *world.Player // players only: ids are reused, the pointer tells them apart
}

// newKind registers a kind with its methods.
func newKind(L *lua.LState, name string, methods map[string]lua.LGFunction) *kind {
	k := &kind{name: name, mt: L.NewTable(), methods: L.NewTable()}
	for n, fn := range methods {
		k.methods.RawSetString(n, L.NewFunction(fn))
	}
	k.mt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		r := refOf(L, 1, k)
		key := L.CheckString(2)
		if key == "id" {
			L.Push(lua.LNumber(r.id))
			return 1
		}
		L.Push(k.methods.RawGetString(key))
		return 1
	}))
	k.mt.RawSetString("__newindex", L.NewFunction(func(L *lua.LState) int {
		r := refOf(L, 1, k)
		L.RaiseError("%s %d: field %q is read-only (use the methods)", k.name, r.id, L.CheckString(2))
		return 0
	}))
	k.mt.RawSetString("__tostring", L.NewFunction(func(L *lua.LState) int {
		r := refOf(L, 1, k)
		L.Push(lua.LString(k.name + " " + strconv.FormatUint(uint64(r.id), 10)))
		return 1
	}))
	k.mt.RawSetString("__metatable", lua.LString(name)) // getmetatable hides the metatable
	return k
}

// handle makes a new userdata for an entity of kind k.
func (k *kind) handle(L *lua.LState, id uint32, player *world.Player) *lua.LUserData {
	ud := L.NewUserData()
	ud.Value = &ref{kind: k, id: id, player: player}
	ud.Metatable = k.mt
	return ud
}

// refOf returns the ref of argument n, which must be an entity of kind k.
func refOf(L *lua.LState, n int, k *kind) *ref {
	if ud, ok := L.Get(n).(*lua.LUserData); ok {
		if r, ok := ud.Value.(*ref); ok && r.kind == k {
			return r
		}
	}
	L.RaiseError("bad argument #%d: %s expected, got %s", n, k.name, describe(L.Get(n)))
	return nil
}

// describe names a Lua value's type for an error, entities by kind.
func describe(v lua.LValue) string {
	if ud, ok := v.(*lua.LUserData); ok {
		if r, ok := ud.Value.(*ref); ok {
			return r.kind.name
		}
	}
	return v.Type().String()
}
