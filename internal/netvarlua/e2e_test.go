package netvarlua_test

import (
	"context"
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"

	"dlmp/client"
	"dlmp/internal/config"
	"dlmp/internal/netvar"
	"dlmp/internal/netvarlua"
	"dlmp/internal/server"
	"dlmp/internal/world"
)

// gamemode registers its vars in Lua while the server builds it, the way
// internal/gamemode will: Install before main.lua runs, Attach once the
// server sealed.
const gamemode = `
local n = dlmp.network
n.Register("VehicleLocked"):SetVehicle():Bool():Accessor("Locked")
n.Register("PRN"):SetVehicle():String(16):SetDefault("hidden"):Filter(function(ent, value)
	return police
end)
n.Register("Weather"):SetGlobal():UByte()
`

// TestLuaEndToEnd runs Lua registrations, sets and a Lua Filter on a real
// server, and reads them on a real client over UDP.
func TestLuaEndToEnd(t *testing.T) {
	L := lua.NewState()
	defer L.Close()
	reg := netvar.NewRegistry()
	vehicle := L.NewTable()
	vehMeta := L.NewTable()
	vehMeta.RawSetString("__index", vehicle)
	players := map[uint16]*lua.LUserData{}
	handle := func(r netvar.Ref) lua.LValue {
		if r.Kind == netvar.KindPlayer {
			if ud := players[r.ID]; ud != nil {
				return ud
			}
			ud := L.NewUserData()
			ud.Value = r
			players[r.ID] = ud
			return ud
		}
		ud := L.NewUserData()
		ud.Value = r
		ud.Metatable = vehMeta
		return ud
	}
	env := netvarlua.Env{
		Ref: func(v lua.LValue) (netvar.Ref, bool) {
			ud, ok := v.(*lua.LUserData)
			if !ok {
				return netvar.Ref{}, false
			}
			r, ok := ud.Value.(netvar.Ref)
			return r, ok
		},
		Handle: handle,
		Methods: func(target string) *lua.LTable {
			if target == "Vehicle" {
				return vehicle
			}
			return nil
		},
	}
	var b *netvarlua.Binding
	cfg := config.Default()
	cfg.Server.Listen = "127.0.0.1:0"
	cfg.Admin.Listen = ""
	srv, err := server.New(server.Options{
		Config:  cfg,
		Netvars: reg,
		Gamemode: func(w *world.World) (world.Gamemode, error) {
			dlmp := L.NewTable()
			L.SetGlobal("dlmp", dlmp)
			b = netvarlua.Install(L, dlmp, reg, env)
			return world.Base{}, L.DoString(gamemode)
		},
		NetvarsReady: func(st *netvar.Store) { b.Attach(st) },
	}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	defer func() {
		cancel()
		<-done
	}()

	dial := func() *client.Client {
		dctx, stop := context.WithTimeout(context.Background(), 5*time.Second)
		defer stop()
		c, err := client.Dial(dctx, client.Config{Server: srv.Addr()}) // no local registrations: synthetic entries
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	cop, civ := dial(), dial()
	wait := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: timed out", what)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	wait("manifests", func() bool { return cop.NetvarsReady() && civ.NetvarsReady() })
	run := func(code string) {
		t.Helper()
		var err error
		if e := srv.Do(context.Background(), func(*world.World) { err = L.DoString(code) }); e != nil {
			t.Fatal(e)
		}
		if err != nil {
			t.Fatalf("%s: %v", code, err)
		}
	}
	car := netvar.Ref{Kind: netvar.KindVehicle, ID: 42}
	srv.Do(context.Background(), func(*world.World) { // the VM belongs to the world goroutine
		L.SetGlobal("car", handle(car))
		L.SetGlobal("cop", handle(netvar.PlayerRef(cop.PlayerID())))
	})
	run(`
police = { cop }
assert(car:SetLocked(true))
assert(car:SetNetVar("PRN", "AB-123"))
assert(dlmp.network.SetGlobal("Weather", 9))
`)
	wait("the cop's view", func() bool {
		return cop.GetNetVar(car, "VehicleLocked") == true && cop.GetNetVar(car, "PRN") == "AB-123" && cop.GetGlobal("Weather") == 9.0
	})
	wait("the civilian's view", func() bool {
		return civ.GetNetVar(car, "VehicleLocked") == true && civ.GetGlobal("Weather") == 9.0
	})
	if got := civ.GetNetVar(car, "PRN"); got != "hidden" {
		t.Fatalf("the civilian reads PRN %v, want the mask", got)
	}
	// The cop leaves the force: one Invalidate from Lua masks it.
	run(`police = {}; assert(dlmp.network.Invalidate(cop, car, "PRN"))`)
	wait("the revoke", func() bool { return cop.GetNetVar(car, "PRN") == "hidden" })
}
