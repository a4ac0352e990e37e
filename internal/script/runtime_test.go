package script

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	lua "github.com/yuin/gopher-lua"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// load runs a gamemode made of files; logs go to the returned buffer.
func load(t *testing.T, files map[string]string, opts Options) (*Runtime, *bytes.Buffer) {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, src := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	var logs bytes.Buffer
	opts.Log = slog.New(slog.NewTextHandler(&logs, nil))
	if opts.Name == "" {
		opts.Name = "testmode"
	}
	r, err := Load(fsys, t0, opts)
	if err != nil {
		t.Fatalf("Load: %v\nlogs:\n%s", err, logs.String())
	}
	t.Cleanup(r.Close)
	return r, &logs
}

func global(r *Runtime, name string) lua.LValue { return r.L.GetGlobal(name) }

func TestSandboxRefuses(t *testing.T) {
	r, _ := load(t, map[string]string{"main.lua": `
		results = {}
		results.io = io == nil
		results.debug = debug == nil
		results.dofile = dofile == nil
		results.loadfile = loadfile == nil
		results.execute = os.execute == nil
		results.getenv = os.getenv == nil
		results.remove = os.remove == nil
		results.exit = os.exit == nil
		results.time = type(os.time) == "function"
		results.clock = type(os.clock) == "function"
		results.date = type(os.date) == "function"
		results.loadlib = package.loadlib == nil
		results.outside = not pcall(require, "..secret")
		results.abs = not pcall(require, "/etc/passwd")
		results.missing = not pcall(require, "nope")
		results.rep = not pcall(string.rep, "x", 1e9)
	`}, Options{})
	res := global(r, "results").(*lua.LTable)
	res.ForEach(func(k, v lua.LValue) {
		if v != lua.LTrue {
			t.Errorf("sandbox check %s failed", k)
		}
	})
	if n := res.Len(); n != 0 {
		t.Fatalf("results has array part %d", n)
	}
	count := 0
	res.ForEach(func(lua.LValue, lua.LValue) { count++ })
	if count != 16 {
		t.Fatalf("%d checks ran, want 16", count)
	}
}

func TestRequireInsideFolder(t *testing.T) {
	r, _ := load(t, map[string]string{
		"main.lua":         `local m = require("lib.util"); answer = m.double(21); same = require("lib.util") == m`,
		"lib/util.lua":     `return { double = function(x) return 2 * x end }`,
		"../outside.lua":   `return 1`, // not reachable: fs paths never climb
		"lib/broken.lua":   `return {`,
		"dlmp_is_here.lua": `return dlmp`,
	}, Options{})
	if got := global(r, "answer"); got != lua.LNumber(42) {
		t.Fatalf("answer = %v, want 42", got)
	}
	if global(r, "same") != lua.LTrue {
		t.Fatal("require did not cache the module")
	}
	err := r.L.DoString(`require("lib.broken")`)
	if err == nil || !strings.Contains(err.Error(), "lib/broken.lua") {
		t.Fatalf("a syntax error in a module: %v, want it to name lib/broken.lua", err)
	}
	if err := r.L.DoString(`assert(require("dlmp") == dlmp)`); err != nil {
		t.Fatal(err)
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := Load(fstest.MapFS{}, t0, Options{Name: "empty"}); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Fatalf("no main.lua: %v", err)
	}
	fsys := fstest.MapFS{"main.lua": {Data: []byte("x = 1\ny = = 2\n")}}
	_, err := Load(fsys, t0, Options{Name: "bad"})
	if err == nil || !strings.Contains(err.Error(), "main.lua line:2") {
		t.Fatalf("syntax error: %v, want main.lua and its line", err)
	}
	fsys = fstest.MapFS{"main.lua": {Data: []byte("local a = 1\nerror('boom')\n")}}
	_, err = Load(fsys, t0, Options{Name: "bad"})
	if err == nil || !strings.Contains(err.Error(), "main.lua:2") || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("runtime error at load: %v, want main.lua:2 and boom", err)
	}
}

func TestErrorInHandlerDoesNotStopNext(t *testing.T) {
	r, logs := load(t, map[string]string{"main.lua": `
		hits = 0
		dlmp.on("chat", function(who, text)
			local t = nil
			return t.field -- line 5: index a nil value
		end)
		dlmp.on("chat", function(who, text) hits = hits + 1; last = text end)
	`}, Options{})
	if n := r.Emit("chat", lua.LNumber(1), lua.LString("hi")); n != 1 {
		t.Fatalf("Emit ran %d handlers cleanly, want 1", n)
	}
	r.Emit("chat", lua.LNumber(1), lua.LString("again"))
	if global(r, "hits") != lua.LNumber(2) || global(r, "last") != lua.LString("again") {
		t.Fatalf("second handler: hits=%v last=%v", global(r, "hits"), global(r, "last"))
	}
	out := logs.String()
	for _, want := range []string{"gamemode=testmode", "main.lua:5", "event chat", "stack traceback"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	if r.Errors() != 2 {
		t.Fatalf("Errors() = %d, want 2", r.Errors())
	}
}

func TestRunawayStopped(t *testing.T) {
	r, logs := load(t, map[string]string{"main.lua": `
		dlmp.on("spin", function() while true do end end)
		dlmp.on("sneaky", function() while true do pcall(function() while true do end end) end end)
		dlmp.on("ok", function() done = (done or 0) + 1 end)
	`}, Options{Budget: 30 * time.Millisecond})
	for _, ev := range []string{"spin", "sneaky"} {
		start := time.Now()
		if n := r.Emit(ev); n != 0 {
			t.Fatalf("%s: a runaway handler reported success", ev)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("%s: stopped after %v, budget 30ms", ev, d)
		}
		r.Emit("ok")
	}
	if global(r, "done") != lua.LNumber(2) {
		t.Fatalf("the VM did not go on after a runaway: done = %v", global(r, "done"))
	}
	if !strings.Contains(logs.String(), ErrBudget.Error()) {
		t.Fatalf("log does not say the budget was exceeded:\n%s", logs.String())
	}
}

func TestRunawayAtLoad(t *testing.T) {
	fsys := fstest.MapFS{"main.lua": {Data: []byte("while true do end")}}
	_, err := Load(fsys, t0, Options{Budget: 20 * time.Millisecond})
	if !errors.Is(err, ErrBudget) {
		t.Fatalf("Load of a runaway main.lua: %v, want ErrBudget", err)
	}
}

func TestPrintGoesToLog(t *testing.T) {
	_, logs := load(t, map[string]string{"main.lua": `print("hello", 42, nil)`}, Options{})
	if !strings.Contains(logs.String(), `msg="hello\t42\tnil"`) {
		t.Fatalf("print output not logged:\n%s", logs.String())
	}
}

func TestInstall(t *testing.T) {
	r, _ := load(t, map[string]string{"main.lua": `v = dlmp.answer()`}, Options{
		Install: func(L *lua.LState, t *lua.LTable) {
			t.RawSetString("answer", L.NewFunction(func(L *lua.LState) int { L.Push(lua.LNumber(42)); return 1 }))
		},
	})
	if global(r, "v") != lua.LNumber(42) {
		t.Fatalf("v = %v", global(r, "v"))
	}
}

func TestOff(t *testing.T) {
	r, _ := load(t, map[string]string{"main.lua": `
		n = 0
		local function h() n = n + 1 end
		dlmp.on("e", h)
		first = dlmp.off("e", h)
		second = dlmp.off("e", h)
	`}, Options{})
	r.Emit("e")
	if global(r, "n") != lua.LNumber(0) || global(r, "first") != lua.LTrue || global(r, "second") != lua.LFalse {
		t.Fatalf("n=%v first=%v second=%v", global(r, "n"), global(r, "first"), global(r, "second"))
	}
	if r.Has("e") {
		t.Fatal("Has(e) after off")
	}
}

// TestNestedCallbackKeepsBudget: a Go function that calls back into Lua
// (as world commands raising events do) must not switch the outer
// callback's budget off when the inner call returns.
func TestNestedCallbackKeepsBudget(t *testing.T) {
	var r *Runtime
	r, logs := load(t, map[string]string{"main.lua": `
		dlmp.on("inner", function() end)
		dlmp.on("outer", function()
			dlmp.emit_inner()  -- Lua → Go → Lua, then a runaway loop
			while true do end
		end)
		dlmp.on("ok", function() done = true end)
	`}, Options{Budget: 30 * time.Millisecond, Install: func(L *lua.LState, tb *lua.LTable) {
		tb.RawSetString("emit_inner", L.NewFunction(func(L *lua.LState) int { r.Emit("inner"); return 0 }))
	}})
	start := time.Now()
	if n := r.Emit("outer"); n != 0 {
		t.Fatal("the runaway outer handler reported success")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("stopped after %v with a 30ms budget", d)
	}
	r.Emit("ok")
	if global(r, "done") != lua.LTrue {
		t.Fatalf("the VM did not go on:\n%s", logs)
	}
}

func TestDecide(t *testing.T) {
	r, _ := load(t, map[string]string{"main.lua": `
		calls = 0
		dlmp.on("ask", function(x) calls = calls + 1; return x > 10 end)
		dlmp.on("ask", function(x) calls = calls + 1; error("boom") end)
		dlmp.on("ask", function(x) calls = calls + 1 end)
	`}, Options{})
	if r.Decide("ask", lua.LNumber(5)) {
		t.Fatal("no handler returned true, Decide said yes")
	}
	if !r.Decide("ask", lua.LNumber(50)) {
		t.Fatal("a handler returned true, Decide said no")
	}
	if global(r, "calls") != lua.LNumber(6) {
		t.Fatalf("calls = %v, want every handler run twice", global(r, "calls"))
	}
	if r.Decide("nobody") {
		t.Fatal("an event nobody handles was accepted")
	}
	if top := r.L.GetTop(); top != 0 {
		t.Fatalf("the Lua stack holds %d values after Decide", top)
	}
}
