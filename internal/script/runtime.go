// Package script runs a Lua gamemode: one gopher-lua VM, sandboxed, driven
// from the world's tick goroutine.
//
// A gamemode is a folder (any fs.FS) with main.lua; require resolves modules
// inside that folder only. Only safe libraries are open: base (without
// dofile, loadfile and file loading), table, string (with a bounded
// string.rep), math, coroutine, and os.time/os.clock/os.date/os.difftime.
// Every callback into Lua runs protected and within a time budget: an error
// or an overrun is logged with the gamemode's name and a traceback, and the
// runtime goes on with the next callback.
//
// A Runtime is not safe for concurrent use: the goroutine that owns the world
// calls every method (Close may be called once from anywhere after that
// goroutine stopped using it).
package script

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// DefaultBudget is how long one callback may run before it is stopped.
const DefaultBudget = 100 * time.Millisecond

// Options configure a Runtime. The zero value is usable.
type Options struct {
	// Name identifies the gamemode in logs; default "gamemode".
	Name string
	// Budget bounds each callback (and the load of main.lua); default DefaultBudget.
	Budget time.Duration
	// Log receives script errors and print output; default slog.Default().
	Log *slog.Logger
	// Install, if set, is called after the sandbox is built and before
	// main.lua runs, with the `dlmp` table to add functions to.
	Install func(L *lua.LState, dlmp *lua.LTable)
}

// Runtime is one loaded gamemode.
type Runtime struct {
	L      *lua.LState
	name   string
	fsys   fs.FS
	log    *slog.Logger
	budget *budget
	dlmp   *lua.LTable

	handlers map[string][]*lua.LFunction
	timers   timers
	now      time.Time // the tick's time, for timers

	errors int           // callbacks that failed, for metrics
	spent  time.Duration // time in outermost callbacks, for metrics
}

// Load builds a sandboxed VM, installs the dlmp module and runs main.lua
// from fsys. now is the time of the world's clock (timers count from it).
func Load(fsys fs.FS, now time.Time, opts Options) (*Runtime, error) {
	if opts.Name == "" {
		opts.Name = "gamemode"
	}
	if opts.Budget <= 0 {
		opts.Budget = DefaultBudget
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	r := &Runtime{
		L:        lua.NewState(lua.Options{SkipOpenLibs: true, CallStackSize: 256, RegistryMaxSize: 1 << 20}),
		name:     opts.Name,
		fsys:     fsys,
		log:      opts.Log.With("gamemode", opts.Name),
		handlers: map[string][]*lua.LFunction{},
		now:      now,
	}
	r.budget = newBudget(opts.Budget)
	r.L.SetContext(r.budget)
	r.openSandbox()
	r.dlmp = r.L.NewTable()
	r.installCore(r.dlmp)
	if opts.Install != nil {
		opts.Install(r.L, r.dlmp)
	}
	r.L.SetGlobal("dlmp", r.dlmp)
	r.L.PreloadModule("dlmp", func(L *lua.LState) int { L.Push(r.dlmp); return 1 })

	src, err := fs.ReadFile(fsys, "main.lua")
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("script: gamemode %s: %w", opts.Name, err)
	}
	fn, err := r.L.Load(bytesReader(src), "main.lua")
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("script: gamemode %s: %w", opts.Name, err)
	}
	if err := r.call(fn); err != nil {
		r.Close()
		return nil, fmt.Errorf("script: gamemode %s: main.lua: %w", opts.Name, err)
	}
	return r, nil
}

// Close releases the VM and stops the budget watchdog.
func (r *Runtime) Close() {
	r.budget.stop()
	r.L.Close()
}

// Name is the gamemode's name.
func (r *Runtime) Name() string { return r.name }

// Errors counts the callbacks that failed or overran since Load.
func (r *Runtime) Errors() int { return r.errors }

// Spent is the time spent running Lua callbacks since Load (nested ones
// counted once, in their outermost callback).
func (r *Runtime) Spent() time.Duration { return r.spent }

// DLMP is the module table, for bindings added after Load.
func (r *Runtime) DLMP() *lua.LTable { return r.dlmp }

// ErrBudget is wrapped by the error of a callback stopped for overrunning.
var ErrBudget = errors.New("script: callback exceeded its time budget")

// call runs fn(args...) protected and within the budget. The error, if any,
// carries the Lua traceback.
func (r *Runtime) call(fn lua.LValue, args ...lua.LValue) error {
	_, err := r.callN(0, fn, args...)
	return err
}

// callN is call keeping nret results: the first is returned (LNil when
// nret is 0 or the call failed).
func (r *Runtime) callN(nret int, fn lua.LValue, args ...lua.LValue) (lua.LValue, error) {
	outer := r.budget.depth == 0
	var start time.Time
	if outer {
		start = time.Now()
	}
	r.budget.begin()
	err := r.L.CallByParam(lua.P{Fn: fn, NRet: nret, Protect: true}, args...)
	over := r.budget.end()
	if outer {
		r.spent += time.Since(start)
	}
	if err == nil {
		ret := lua.LValue(lua.LNil)
		if nret > 0 {
			ret = r.L.Get(-nret)
			r.L.Pop(nret)
		}
		return ret, nil
	}
	if over {
		return lua.LNil, fmt.Errorf("%w (%v): %v", ErrBudget, r.budget.limit, err)
	}
	return lua.LNil, err
}

// Call runs a Lua function as a callback: protected, budgeted, logged on
// failure. It reports whether the call succeeded.
func (r *Runtime) Call(what string, fn lua.LValue, args ...lua.LValue) bool {
	if err := r.call(fn, args...); err != nil {
		r.errors++
		r.log.Error("script error", "in", what, "err", err.Error())
		return false
	}
	return true
}
