package netvarlua

import (
	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/netvar"
)

// builderMeta is the metatable of the builder a Register returns: every
// method calls the Go builder method of the same name and returns the
// builder, so the chain reads as in network-vars.md.
func (b *Binding) builderMeta() *lua.LTable {
	L := b.L
	plain := map[string]func(*netvar.Var) *netvar.Var{
		"SetEntity": (*netvar.Var).SetEntity, "SetPlayer": (*netvar.Var).SetPlayer,
		"SetVehicle": (*netvar.Var).SetVehicle, "SetWeapon": (*netvar.Var).SetWeapon,
		"SetLocalPlayer": (*netvar.Var).SetLocalPlayer, "SetGlobal": (*netvar.Var).SetGlobal,
		"Bool": (*netvar.Var).Bool, "Bit": (*netvar.Var).Bit,
		"Nibble": (*netvar.Var).Nibble, "UNibble": (*netvar.Var).UNibble,
		"Byte": (*netvar.Var).Byte, "UByte": (*netvar.Var).UByte,
		"Short": (*netvar.Var).Short, "UShort": (*netvar.Var).UShort,
		"Int": (*netvar.Var).Int, "UInt": (*netvar.Var).UInt,
		"Float": (*netvar.Var).Float, "Double": (*netvar.Var).Double, "Long": (*netvar.Var).Long,
		"Vector": (*netvar.Var).Vector, "Normal": (*netvar.Var).Normal, "Angle": (*netvar.Var).Angle,
		"Color": (*netvar.Var).Color, "Entity": (*netvar.Var).Entity, "Player": (*netvar.Var).Player,
		"Table": (*netvar.Var).Table, "Auto": (*netvar.Var).Auto,
		"Broadcast": (*netvar.Var).Broadcast, "SendPVS": (*netvar.Var).SendPVS, "SendPAS": (*netvar.Var).SendPAS,
		"AutoHook": (*netvar.Var).AutoHook, "Predictable": (*netvar.Var).Predictable,
		"ClientOwned": (*netvar.Var).ClientOwned, "SetNoSync": (*netvar.Var).SetNoSync,
	}
	withInt := map[string]func(*netvar.Var, int) *netvar.Var{
		"Integer": (*netvar.Var).Integer, "UInteger": (*netvar.Var).UInteger, "Data": (*netvar.Var).Data,
	}
	methods := L.NewTable()
	chain := func(fn func(L *lua.LState, v *netvar.Var)) *lua.LFunction {
		return L.NewFunction(func(L *lua.LState) int {
			ud := L.CheckUserData(1)
			v, ok := ud.Value.(*netvar.Var)
			if !ok {
				L.ArgError(1, "not a netvar builder")
			}
			fn(L, v)
			L.Push(ud)
			return 1
		})
	}
	for name, m := range plain {
		methods.RawSetString(name, chain(func(_ *lua.LState, v *netvar.Var) { m(v) }))
	}
	for name, m := range withInt {
		methods.RawSetString(name, chain(func(L *lua.LState, v *netvar.Var) { m(v, L.CheckInt(2)) }))
	}
	methods.RawSetString("String", chain(func(L *lua.LState, v *netvar.Var) {
		if L.GetTop() >= 2 && L.Get(2) != lua.LNil {
			v.String(L.CheckInt(2))
			return
		}
		v.String()
	}))
	methods.RawSetString("Enum", chain(func(L *lua.LState, v *netvar.Var) {
		t := L.CheckTable(2)
		var list []any
		for i := 1; i <= t.Len(); i++ { // ipairs order: the wire index
			list = append(list, b.toGo(nil, t.RawGetInt(i)))
		}
		v.Enum(list)
	}))
	methods.RawSetString("Debounce", chain(func(L *lua.LState, v *netvar.Var) {
		if L.GetTop() >= 3 && L.Get(3) != lua.LNil {
			v.Debounce(float64(L.CheckNumber(2)), float64(L.CheckNumber(3)))
			return
		}
		v.Debounce(float64(L.CheckNumber(2)))
	}))
	methods.RawSetString("SetDefault", chain(func(L *lua.LState, v *netvar.Var) { v.SetDefault(b.toGo(v, L.Get(2))) }))
	methods.RawSetString("Accessor", chain(func(L *lua.LState, v *netvar.Var) { v.Accessor(L.CheckString(2)) }))
	methods.RawSetString("SetHook", chain(func(L *lua.LState, v *netvar.Var) {
		switch h := L.Get(2).(type) {
		case *lua.LFunction:
			v.SetHook("lua:" + v.Name()) // a name for the dump; the function runs
			b.hooks[v] = h
		case lua.LString:
			v.SetHook(string(h))
			delete(b.hooks, v)
		default:
			L.ArgError(2, "a hook name or a function")
		}
	}))
	methods.RawSetString("Filter", chain(func(L *lua.LState, v *netvar.Var) {
		v.Filter(b.recipientFunc(v, L.CheckFunction(2)))
	}))
	methods.RawSetString("SendOmit", chain(func(L *lua.LState, v *netvar.Var) {
		v.SendOmit(b.recipientFunc(v, L.CheckFunction(2)))
	}))
	custom := func(L *lua.LState) int {
		L.RaiseError("netvar: custom codecs (:Write/:Read) are Go-only: a Lua function cannot be described by the manifest; use :Enum or a built-in codec")
		return 0
	}
	methods.RawSetString("Write", L.NewFunction(custom))
	methods.RawSetString("Read", L.NewFunction(custom))
	meta := L.NewTable()
	meta.RawSetString("__index", methods)
	meta.RawSetString("__metatable", lua.LString("netvar builder"))
	return meta
}

// register is dlmp.network.Register(name): the start of a builder chain.
func (b *Binding) register(L *lua.LState) int {
	v := b.reg.Register(L.CheckString(1))
	ud := L.NewUserData()
	ud.Value = v
	ud.Metatable = b.bmeta
	L.Push(ud)
	return 1
}

// recipientFunc wraps a Lua fn(ent, value) returning a Player, an array
// of Players, or nil.
func (b *Binding) recipientFunc(v *netvar.Var, fn *lua.LFunction) netvar.RecipientFunc {
	return func(ent netvar.Ref, value any) []netvar.PlayerID {
		if err := b.L.CallByParam(lua.P{Fn: fn, NRet: 1, Protect: true}, b.handle(ent), b.toLua(value)); err != nil {
			b.log.Error("netvar: recipient callback failed: it sends to no one", "var", v.Name(), "err", err)
			return nil
		}
		ret := b.L.Get(-1)
		b.L.Pop(1)
		ps, _ := b.players(ret)
		return ps
	}
}

// players reads a Player, an array of Players, or nil (all: ok false).
func (b *Binding) players(lv lua.LValue) ([]netvar.PlayerID, bool) {
	switch x := lv.(type) {
	case *lua.LNilType:
		return nil, false
	case *lua.LTable:
		out := []netvar.PlayerID{}
		for i := 1; i <= x.Len(); i++ {
			if r, ok := b.ref(x.RawGetInt(i)); ok && r.Kind == netvar.KindPlayer {
				out = append(out, netvar.PlayerID(r.ID))
			}
		}
		return out, true
	}
	if r, ok := b.ref(lv); ok && r.Kind == netvar.KindPlayer {
		return []netvar.PlayerID{netvar.PlayerID(r.ID)}, true
	}
	return []netvar.PlayerID{}, true
}

func (b *Binding) ref(lv lua.LValue) (netvar.Ref, bool) {
	if b.env.Ref == nil {
		return netvar.Ref{}, false
	}
	return b.env.Ref(lv)
}
