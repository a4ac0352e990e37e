// Package gamemode binds a Lua gamemode (package script) to the world
// (package world): a [Mode] is the world's [world.Gamemode], turning every
// world event into a Lua event (dlmp.on), and it installs the `dlmp` module
// through which the script changes the world. docs/lua-api.md lists every
// function and event; its examples run as tests against a real world.
//
// Entities reach Lua as userdata with methods (pickup:set_position(x, y,
// z), player:give_health(50)) and an `id` field; the same entity is always
// the same userdata, so handles compare with ==. A handle outlives its
// entity: using a deleted pickup or a player who left raises a Lua error
// naming it ("pickup 12 was deleted"), never a crash. A command the world
// refuses raises a Lua error with the world's message, which names the
// function, the argument and the rule ("create_pickup: model: ...").
//
// Each entity kind has its own file: a metatable, its methods and the
// dlmp functions that create and find it (pickup.go, label.go,
// checkpoint.go, blip.go, gangzone.go, colshape.go, object.go,
// vehicle.go). A new kind of the world is one more file registering one
// more kind. Handles of entities the world deletes by itself (a leaving
// player's checkpoints) are dropped every SweepEvery.
//
// A Mode is owned by the world's goroutine, like the World: its event
// methods run inside World calls, and Start, Tick and Close are called
// from the same goroutine.
package gamemode

import (
	"fmt"
	"io/fs"
	"log/slog"
	"time"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/netvar"
	"dlmp/internal/netvarlua"
	"dlmp/internal/script"
	"dlmp/internal/world"
)

// Mode is a Lua gamemode bound to a world. The zero value ignores every
// event until Start.
type Mode struct {
	// Base ignores the world's events this package does not raise in Lua
	// yet, so a world that grows a new event still builds.
	world.Base

	// Set by Start.
	w    *world.World
	rt   *script.Runtime
	L    *lua.LState // the VM's main state, set before main.lua runs
	fsys fs.FS

	// Handles: one userdata per live entity, dropped when it goes.
	players map[*world.Player]*lua.LUserData
	grants  map[uint32]grant // what a pickup gives (create_pickup grant, load_map)

	kinds kinds

	// Event dispatch (events.go).
	depth   int      // > 0 while a Lua callback runs
	queue   []queued // events raised by callbacks, dispatched after them
	dropped uint64   // events dropped past MaxChained
	log     *slog.Logger

	// Netvars, when set before Start, offers dlmp.network with this
	// registry (netvars.go).
	Netvars *netvar.Registry
	netvars *netvarlua.Binding
	now     time.Time // the time of the tick in progress
	sweptAt time.Time // the last sweep of the handles of deleted entities
}

// SweepEvery is how often the Mode drops the handles of entities the world
// deleted by itself (a leaving player's checkpoints, an object's chain).
const SweepEvery = 5 * time.Second

var _ world.Gamemode = (*Mode)(nil)

// Start loads the gamemode in fsys (main.lua, see package script) bound to
// w, which must have been created with m as its gamemode. opts.Install, if
// set, runs after the dlmp module is installed. now is the world's time.
func (m *Mode) Start(w *world.World, fsys fs.FS, now time.Time, opts script.Options) error {
	if m.rt != nil {
		return fmt.Errorf("gamemode: already started")
	}
	m.w, m.fsys, m.now = w, fsys, now
	m.players = map[*world.Player]*lua.LUserData{}
	m.grants = map[uint32]grant{}
	extra := opts.Install
	opts.Install = func(L *lua.LState, t *lua.LTable) {
		m.install(L, t)
		if extra != nil {
			extra(L, t)
		}
	}
	m.log = opts.Log
	if m.log == nil {
		m.log = slog.Default()
	}
	rt, err := script.Load(fsys, now, opts) // events raised while main.lua runs are not raised in Lua
	if err != nil {
		return err
	}
	m.rt = rt
	return nil
}

// New starts the gamemode in fsys bound to w, for a world created before
// its gamemode (package server builds the world with a forwarding
// gamemode, then calls a builder with it): the caller forwards w's events
// to the returned Mode.
func New(w *world.World, fsys fs.FS, now time.Time, opts script.Options) (*Mode, error) {
	m := &Mode{}
	if err := m.Start(w, fsys, now, opts); err != nil {
		return nil, err
	}
	return m, nil
}

// Runtime is the script runtime, nil before Start.
func (m *Mode) Runtime() *script.Runtime { return m.rt }

// Tick fires the gamemode's timers due at now. Call it after
// [world.World.Tick] with the same now, so commands from timers see the
// world's current time.
func (m *Mode) Tick(now time.Time) {
	m.now = now
	if m.rt != nil {
		m.depth++
		m.rt.Tick(now)
		m.drain()
		m.depth--
		if now.Sub(m.sweptAt) >= SweepEvery {
			m.sweptAt = now
			for _, k := range m.kinds.idKinds() {
				k.sweep()
			}
		}
	}
}

// Shutdown is Close, under the name package server calls when it stops.
func (m *Mode) Shutdown() { m.Close() }

// Close raises shutdown and releases the VM. Events after it are ignored.
func (m *Mode) Close() {
	if m.rt == nil {
		return
	}
	m.fire("shutdown")
	m.rt.Close()
	m.rt = nil
}

// install builds the dlmp module: every kind's functions and methods.
func (m *Mode) install(L *lua.LState, t *lua.LTable) {
	m.L = L
	m.installPlayer(L, t)
	m.installPickup(L, t)
	m.installLabel(L, t)
	m.installCheckpoint(L, t)
	m.installBlip(L, t)
	m.installGangZone(L, t)
	m.installColshape(L, t)
	m.installObject(L, t)
	m.installVehicle(L, t)
	m.installServer(L, t)
	m.installMap(L, t)
	m.installNetvars(L, t)
}

// LuaStats reports the callbacks that failed or overran and the time spent
// in Lua, for the server's metrics.
func (m *Mode) LuaStats() (errors int, spent time.Duration) { return m.rt.Errors(), m.rt.Spent() }
