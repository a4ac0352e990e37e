package netvarlua

import (
	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/netvar"
)

// entSet is ent:SetNetVar(key, value): true when the set was accepted.
func (b *Binding) entSet(L *lua.LState) int {
	key := L.CheckString(2)
	if !b.ready("SetNetVar") {
		L.Push(lua.LFalse)
		return 1
	}
	ent, ok := b.ref(L.Get(1))
	if !ok {
		b.log.Error("netvar: SetNetVar on something that is not a live entity", "var", key)
		L.Push(lua.LFalse)
		return 1
	}
	v, _ := b.store.Schema().Lookup(key)
	err := b.store.Set(b.env.Now(), ent, key, b.toGo(v, L.Get(3)))
	L.Push(lua.LBool(err == nil))
	return 1
}

// entGet is ent:GetNetVar(key[, fallback]): the value, else the var's
// default, else fallback.
func (b *Binding) entGet(L *lua.LState) int {
	key := L.CheckString(2)
	ent, ok := b.ref(L.Get(1))
	if !ok || !b.ready("GetNetVar") {
		L.Push(L.Get(3))
		return 1
	}
	L.Push(b.orFallback(b.store.Get(ent, key), L.Get(3)))
	return 1
}

// setGlobal is dlmp.network.SetGlobal(key, value).
func (b *Binding) setGlobal(L *lua.LState) int {
	key := L.CheckString(1)
	if !b.ready("SetGlobal") {
		L.Push(lua.LFalse)
		return 1
	}
	v, _ := b.store.Schema().Lookup(key)
	err := b.store.SetGlobal(b.env.Now(), key, b.toGo(v, L.Get(2)))
	L.Push(lua.LBool(err == nil))
	return 1
}

// getGlobal is dlmp.network.GetGlobal(key[, fallback]).
func (b *Binding) getGlobal(L *lua.LState) int {
	key := L.CheckString(1)
	if !b.ready("GetGlobal") {
		L.Push(L.Get(2))
		return 1
	}
	L.Push(b.orFallback(b.store.GetGlobal(key), L.Get(2)))
	return 1
}

func (b *Binding) orFallback(v any, fallback lua.LValue) lua.LValue {
	if v == nil {
		return fallback
	}
	return b.toLua(v)
}

// invalidate is dlmp.network.Invalidate(ply, ent, key): ply and ent a
// single value, an array, or nil for all; key a name or an array of names.
func (b *Binding) invalidate(L *lua.LState) int {
	if !b.ready("Invalidate") {
		L.Push(lua.LFalse)
		return 1
	}
	players, some := b.players(L.Get(1))
	if !some {
		players = nil
	}
	var ents []netvar.Ref
	switch x := L.Get(2).(type) {
	case *lua.LNilType:
	case *lua.LTable:
		ents = []netvar.Ref{}
		for i := 1; i <= x.Len(); i++ {
			if r, ok := b.ref(x.RawGetInt(i)); ok {
				ents = append(ents, r)
			}
		}
	default:
		r, ok := b.ref(x)
		if !ok {
			b.log.Error("netvar: Invalidate: ent is not a live entity")
			L.Push(lua.LFalse)
			return 1
		}
		ents = []netvar.Ref{r}
	}
	var keys []string
	switch x := L.Get(3).(type) {
	case lua.LString:
		keys = []string{string(x)}
	case *lua.LTable:
		for i := 1; i <= x.Len(); i++ {
			if s, ok := x.RawGetInt(i).(lua.LString); ok {
				keys = append(keys, string(s))
			}
		}
	}
	err := b.store.Invalidate(players, ents, keys...) // no key: a logged error
	L.Push(lua.LBool(err == nil))
	return 1
}

// waitForPlayer is dlmp.network.WaitForPlayer(ply, fn): fn(ply) once the
// player's handshake completes, or now if it has.
func (b *Binding) waitForPlayer(L *lua.LState) int {
	fn := L.CheckFunction(2)
	r, ok := b.ref(L.Get(1))
	if !ok || r.Kind != netvar.KindPlayer {
		b.log.Error("netvar: WaitForPlayer: not a connected player")
		return 0
	}
	if !b.ready("WaitForPlayer") {
		return 0
	}
	b.store.WaitForPlayer(netvar.PlayerID(r.ID), func(p netvar.PlayerID) {
		if err := b.L.CallByParam(lua.P{Fn: fn, NRet: 0, Protect: true}, b.handle(netvar.PlayerRef(uint16(p)))); err != nil {
			b.log.Error("netvar: WaitForPlayer callback failed", "err", err)
		}
	})
	return 0
}

// isEntityScope is dlmp.network.IsEntityScope(scope): scope by name
// ("Entity", "Player", "Vehicle", "LocalPlayer", "Global").
func (b *Binding) isEntityScope(L *lua.LState) int {
	s := L.CheckString(1)
	L.Push(lua.LBool(s == "Entity" || s == "Player" || s == "Vehicle"))
	return 1
}

// accessors generates Get<Name>/Set<Name> on each accessor target, once
// the registry has sealed (the Initialize hook: before any event runs).
func (b *Binding) accessors() {
	for _, v := range b.store.Schema().Vars() {
		name := v.AccessorName()
		if name == "" {
			continue
		}
		m := b.methods(v.AccessorTarget())
		if m == nil {
			b.log.Error("netvar: Accessor: the gamemode has no such kind", "var", v.Name(), "target", v.AccessorTarget())
			continue
		}
		key, global := v.Name(), v.Scope() == netvar.ScopeGlobal
		m.RawSetString("Get"+name, b.L.NewFunction(func(L *lua.LState) int {
			if global {
				L.Push(b.orFallback(b.store.GetGlobal(key), L.Get(2)))
				return 1
			}
			ent, ok := b.ref(L.Get(1))
			if !ok {
				L.Push(L.Get(2))
				return 1
			}
			L.Push(b.orFallback(b.store.Get(ent, key), L.Get(2)))
			return 1
		}))
		m.RawSetString("Set"+name, b.L.NewFunction(func(L *lua.LState) int {
			var err error
			if global {
				err = b.store.SetGlobal(b.env.Now(), key, b.toGo(v, L.Get(2)))
			} else if ent, ok := b.ref(L.Get(1)); ok {
				err = b.store.Set(b.env.Now(), ent, key, b.toGo(v, L.Get(2)))
			} else {
				b.log.Error("netvar: Set"+name+" on something that is not a live entity", "var", key)
				L.Push(lua.LFalse)
				return 1
			}
			L.Push(lua.LBool(err == nil))
			return 1
		}))
	}
}
