package gamemode

import (
	"math"
	"strconv"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/world"
)

// kind is one entity type as Lua sees it: a metatable whose __index gives
// the `id` field and the methods, and __tostring "pickup 12".
//
// An id kind (every kind but players: pickups, labels, checkpoints, blips,
// gang zones, colshapes, objects, vehicles) names its entities by an id;
// a kind whose ids the world reuses (vehicles) also has a token that tells
// a handle's entity from a later one with its id. It keeps one handle
// per live entity, asks the world whether an id is live (live), and gives
// its methods the id only after that check: a new kind is newIDKind with
// its methods and the world's lookup.
type kind struct {
	name    string
	mt      *lua.LTable
	methods *lua.LTable

	// id kinds
	live    func(id uint32) bool
	handles map[uint32]*lua.LUserData
	// token, for a kind whose ids the world reuses (vehicles), returns
	// what tells the entity apart from a later one with the same id (its
	// pointer); nil when ids are never reused.
	token func(id uint32) any
}

// kinds holds every kind the module installed.
type kinds struct {
	player   *kind
	pickup   *kind
	label    *kind
	cp       *kind
	blip     *kind
	zone     *kind
	colshape *kind
	object   *kind
	vehicle  *kind
}

// idKinds lists the installed id kinds.
func (ks *kinds) idKinds() []*kind {
	return []*kind{ks.pickup, ks.label, ks.cp, ks.blip, ks.zone, ks.colshape, ks.object, ks.vehicle}
}

// ref is the value inside an entity's userdata.
type ref struct {
	kind   *kind
	id     uint32
	player *world.Player // players only: ids are reused, the pointer tells them apart
	token  any           // kinds with a token: the entity's token when the handle was made
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

// idMethod is a method of an id kind: it runs only on a live entity.
type idMethod func(L *lua.LState, id uint32) int

// newIDKind registers an id kind: its methods, and exists(), which never
// raises.
func newIDKind(L *lua.LState, name string, live func(uint32) bool, methods map[string]idMethod) *kind {
	fns := map[string]lua.LGFunction{}
	var k *kind
	for n, fn := range methods {
		fns[n] = func(L *lua.LState) int { return fn(L, k.self(L)) }
	}
	fns["exists"] = func(L *lua.LState) int { return push(L, lua.LBool(k.liveRef(refOf(L, 1, k)))) }
	k = newKind(L, name, fns)
	k.live, k.handles = live, map[uint32]*lua.LUserData{}
	return k
}

// liveRef reports whether the entity a handle names is still there (not
// a later entity that reuses its id).
func (k *kind) liveRef(r *ref) bool {
	return k.live(r.id) && (k.token == nil || k.token(r.id) == r.token)
}

// handle makes a new userdata for an entity of kind k.
func (k *kind) handle(L *lua.LState, id uint32, player *world.Player) *lua.LUserData {
	ud := L.NewUserData()
	r := &ref{kind: k, id: id, player: player}
	if k.token != nil {
		r.token = k.token(id)
	}
	ud.Value = r
	ud.Metatable = k.mt
	return ud
}

// get returns the handle of a live entity of an id kind.
func (k *kind) get(L *lua.LState, id uint32) *lua.LUserData {
	ud := k.handles[id]
	if ud == nil || !k.liveRef(ud.Value.(*ref)) {
		ud = k.handle(L, id, nil)
		k.handles[id] = ud
	}
	return ud
}

// forget drops the handle of an entity the world no longer has. Handles
// already in Lua keep saying it was deleted.
func (k *kind) forget(id uint32) {
	if ud := k.handles[id]; ud != nil && !k.liveRef(ud.Value.(*ref)) {
		delete(k.handles, id)
	}
}

// sweep forgets the handles of every entity the world deleted by itself
// (a player's checkpoints when they leave, an object's chain).
func (k *kind) sweep() {
	for id := range k.handles {
		k.forget(id)
	}
}

// self returns the id of the method's receiver, raising if it was deleted.
func (k *kind) self(L *lua.LState) uint32 {
	r := refOf(L, 1, k)
	if !k.liveRef(r) {
		L.RaiseError("%s %d was deleted", k.name, r.id)
	}
	return r.id
}

// arg reads argument n as an entity of the kind or its id.
func (k *kind) arg(L *lua.LState, n int, fn string) uint32 {
	switch L.Get(n).(type) {
	case lua.LNumber:
		return uint32(integer(L, n, fn, k.name, 1, math.MaxUint32))
	case *lua.LUserData:
		return refOf(L, n, k).id
	}
	argFail(L, fn, k.name, "must be a %s or a %s id, got %s", k.name, k.name, describe(L.Get(n)))
	return 0
}

// liveArg reads argument n as a live entity of the kind or its id.
func (k *kind) liveArg(L *lua.LState, n int, fn string) uint32 {
	id := k.arg(L, n, fn)
	if _, isID := L.Get(n).(lua.LNumber); isID {
		if !k.live(id) {
			argFail(L, fn, k.name, "no %s %d", k.name, id)
		}
		return id
	}
	if !k.liveRef(refOf(L, n, k)) {
		L.RaiseError("%s %d was deleted", k.name, id)
	}
	return id
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
