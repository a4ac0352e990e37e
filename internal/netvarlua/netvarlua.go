// Package netvarlua is the Lua face of the network-vars library: the
// builder chain dlmp.network.Register("x"):SetEntity():Bool():SendPVS()...
// mapped one to one on netvar's Go builder, ent:SetNetVar/GetNetVar,
// dlmp.network.SetGlobal/GetGlobal/Invalidate/WaitForPlayer, the generated
// Get<Name>/Set<Name> accessors, and :SetHook/:Filter/:SendOmit callbacks
// written in Lua.
//
// The gamemode package owns the VM and the entity handles; it calls
// [Install] while the gamemode loads (so registrations happen before the
// seal) and hands the store over with [Binding.Attach] once the server has
// sealed the registry. Everything runs on the world goroutine, like the VM.
//
// Misuse (an unknown var, a wrong scope, a refused value) is a logged
// error and a false return, as network-vars.md asks, never a Lua error;
// a Lua error inside a hook or filter callback is logged and the callback
// counts as having returned nothing.
package netvarlua

import (
	"fmt"
	"log/slog"
	"time"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/netvar"
)

// Env is what the binding needs from the gamemode package.
type Env struct {
	// Now is the time of the tick in progress.
	Now func() time.Time
	// Ref maps a Lua entity handle to its netvar owner; false when the
	// value is not a live entity.
	Ref func(v lua.LValue) (netvar.Ref, bool)
	// Handle maps an owner back to its Lua handle (LNil when gone).
	Handle func(r netvar.Ref) lua.LValue
	// Methods returns the method table of an accessor target, "Entity",
	// "Player" or "Vehicle" (netvar.Var.AccessorTarget), where
	// SetNetVar/GetNetVar and the generated accessors go; nil when the
	// gamemode has no such kind.
	Methods func(target string) *lua.LTable
	// Hook runs a named hook (:SetHook("Name")) with its arguments; nil
	// ignores named hooks.
	Hook func(name string, args ...lua.LValue)
	// Log receives the binding's errors; slog.Default() when nil.
	Log *slog.Logger
}

// Binding is one installed dlmp.network module.
type Binding struct {
	L     *lua.LState
	reg   *netvar.Registry
	env   Env
	store *netvar.Store
	log   *slog.Logger
	hooks map[*netvar.Var]lua.LValue // a Lua function or a hook name
	bmeta *lua.LTable                // the builder's metatable
}

// Install adds dlmp.network to the dlmp table and SetNetVar/GetNetVar to
// the entity kinds, registering into reg.
func Install(L *lua.LState, dlmp *lua.LTable, reg *netvar.Registry, env Env) *Binding {
	if env.Log == nil {
		env.Log = slog.Default()
	}
	if env.Now == nil {
		env.Now = time.Now
	}
	b := &Binding{L: L, reg: reg, env: env, log: env.Log, hooks: map[*netvar.Var]lua.LValue{}}
	b.bmeta = b.builderMeta()
	net := L.NewTable()
	fns := map[string]lua.LGFunction{
		"Register":      b.register,
		"SetGlobal":     b.setGlobal,
		"GetGlobal":     b.getGlobal,
		"Invalidate":    b.invalidate,
		"WaitForPlayer": b.waitForPlayer,
		"IsEntityScope": b.isEntityScope,
	}
	for name, fn := range fns {
		net.RawSetString(name, L.NewFunction(fn))
	}
	net.RawSetString("RESYNC_GROUP_OVERHEAD_BITS", lua.LNumber(netvar.ResyncGroupOverheadBits))
	dlmp.RawSetString("network", net)
	for _, target := range []string{"Entity", "Player", "Vehicle"} {
		if m := b.methods(target); m != nil {
			m.RawSetString("SetNetVar", L.NewFunction(b.entSet))
			m.RawSetString("GetNetVar", L.NewFunction(b.entGet))
		}
	}
	return b
}

// Attach gives the binding the server's store once the registry sealed,
// and routes the store's hook to the Lua hooks.
func (b *Binding) Attach(st *netvar.Store) {
	b.store = st
	b.accessors()
	prev := st.Hook
	st.Hook = func(ent netvar.Ref, v *netvar.Var, newValue, oldValue any) {
		if prev != nil {
			prev(ent, v, newValue, oldValue)
		}
		b.runHook(ent, v, newValue, oldValue)
	}
}

func (b *Binding) methods(target string) *lua.LTable {
	if b.env.Methods == nil {
		return nil
	}
	return b.env.Methods(target)
}

// runHook calls a var's hook: fn(ent, new, old, predicted) for a function,
// Env.Hook(name, ent, new, old, predicted) for a name.
func (b *Binding) runHook(ent netvar.Ref, v *netvar.Var, newValue, oldValue any) {
	h, ok := b.hooks[v]
	if !ok {
		if name := v.Hook(); name != "" && b.env.Hook != nil {
			b.env.Hook(name, b.handle(ent), b.toLua(newValue), b.toLua(oldValue), lua.LFalse)
		}
		return
	}
	args := []lua.LValue{b.handle(ent), b.toLua(newValue), b.toLua(oldValue), lua.LFalse}
	if fn, ok := h.(*lua.LFunction); ok {
		if err := b.L.CallByParam(lua.P{Fn: fn, NRet: 0, Protect: true}, args...); err != nil {
			b.log.Error("netvar: hook failed", "var", v.Name(), "err", err)
		}
	}
}

func (b *Binding) handle(ent netvar.Ref) lua.LValue {
	if ent.Kind == netvar.KindNone || b.env.Handle == nil {
		return lua.LNil
	}
	return b.env.Handle(ent)
}

// ready reports whether the store is attached, logging the misuse if not.
func (b *Binding) ready(op string) bool {
	if b.store == nil {
		b.log.Error(fmt.Sprintf("netvar: %s before the registry sealed (use it from an event, not at file scope)", op))
		return false
	}
	return true
}
