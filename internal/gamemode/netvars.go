package gamemode

import (
	"time"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/netvar"
	"dlmp/internal/netvarlua"
)

// installNetvars adds dlmp.network (package netvarlua) when the Mode has a
// registry: the gamemode registers its vars while main.lua runs, and the
// server seals the registry once it has loaded.
func (m *Mode) installNetvars(L *lua.LState, t *lua.LTable) {
	if m.Netvars == nil {
		return
	}
	m.netvars = netvarlua.Install(L, t, m.Netvars, netvarlua.Env{
		Now:     func() time.Time { return m.now },
		Ref:     m.netvarRef,
		Handle:  m.netvarHandle,
		Methods: m.netvarMethods,
		Hook:    func(name string, args ...lua.LValue) { m.fire(name, args...) },
		Log:     m.log,
	})
}

// AttachNetvars hands dlmp.network the server's store (pass it as
// server.Options.NetvarsReady).
func (m *Mode) AttachNetvars(st *netvar.Store) {
	if m.netvars != nil {
		m.netvars.Attach(st)
	}
}

// netvarRef maps a live player handle to its netvar owner.
func (m *Mode) netvarRef(v lua.LValue) (netvar.Ref, bool) {
	ud, ok := v.(*lua.LUserData)
	if !ok {
		return netvar.Ref{}, false
	}
	r, ok := ud.Value.(*ref)
	if !ok || r.kind != m.kinds.player || r.player == nil || m.w.Player(r.player.ID()) != r.player {
		return netvar.Ref{}, false
	}
	return netvar.PlayerRef(r.player.ID()), true
}

// netvarHandle maps a netvar owner back to its Lua handle.
func (m *Mode) netvarHandle(r netvar.Ref) lua.LValue {
	if r.Kind == netvar.KindPlayer {
		if p := m.w.Player(r.ID); p != nil {
			return m.player(p)
		}
	}
	return lua.LNil
}

// netvarMethods is where accessors go: players are the only entities a
// gamemode has a handle kind for today, so Entity accessors go there too.
func (m *Mode) netvarMethods(target string) *lua.LTable {
	switch target {
	case "Player", "Entity":
		return m.kinds.player.methods
	}
	return nil
}
