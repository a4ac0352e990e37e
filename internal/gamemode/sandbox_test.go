package gamemode

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"testing/fstest"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/config"
	"dlmp/internal/script"
	"dlmp/internal/wire"
	"dlmp/internal/world"
)

// The dlmp module adds no way out of the script sandbox, and handles cannot
// be forged or taken apart.
func TestSandboxIntact(t *testing.T) {
	f := newFixture(t, files("main.lua", `
		pk = dlmp.create_pickup(1240, 0, 0, 3)
		results = {
			io = io == nil,
			debug = debug == nil,
			dofile = dofile == nil,
			loadfile = loadfile == nil,
			execute = os.execute == nil,
			getenv = os.getenv == nil,
			loadlib = package.loadlib == nil,
			require_outside = not pcall(require, "..secret"),
			map_outside = not pcall(dlmp.load_map, "../mapfile/testdata/port69.map"),
			map_absolute = not pcall(dlmp.load_map, "/etc/hostname"),
			metatable_hidden = getmetatable(pk) == "pickup",
			no_setmetatable = not pcall(setmetatable, pk, {}),
			forged = not pcall(dlmp.collect_pickup, setmetatable({ id = 1 }, {})),
			wrong_kind = not pcall(dlmp.take_pickup, pk, pk),
			dlmp_required = require("dlmp") == dlmp,
		}
	`))
	count := 0
	f.global("results").(*lua.LTable).ForEach(func(k, v lua.LValue) {
		count++
		if v != lua.LTrue {
			t.Errorf("sandbox check %s failed", k)
		}
	})
	if count != 15 {
		t.Fatalf("%d checks ran, want 15", count)
	}
	if f.w.Pickup(1) == nil || !f.w.Pickup(1).Active() {
		t.Fatal("a forged handle changed the pickup")
	}
}

// A gamemode that fails at load reports it, naming the file and line.
func TestStartErrors(t *testing.T) {
	_, err := startFixture(t, files("main.lua", "dlmp.create_pickup(7, 0, 0, 0)"))
	if err == nil || !strings.Contains(err.Error(), "main.lua:1") || !strings.Contains(err.Error(), "create_pickup: model") {
		t.Fatalf("Start: %v, want main.lua:1 and the create_pickup error", err)
	}
	_, err = startFixture(t, fstest.MapFS{})
	if err == nil {
		t.Fatal("Start without main.lua succeeded")
	}
	f := newFixture(t, files("main.lua", ""))
	if err := f.m.Start(f.w, files("main.lua", ""), t0, script.Options{}); err == nil {
		t.Fatal("a second Start succeeded")
	}
	var zero Mode // events before Start are ignored
	zero.Chat(nil, "x")
	zero.Tick(t0)
	zero.Close()
}

// forward is the server's shape: the world is built with a gamemode that
// forwards to one built afterwards.
type forward struct{ world.Gamemode }

func TestNewBehindAForwarder(t *testing.T) {
	fw := &forward{world.Base{}}
	w, err := world.New(config.Default(), fw, t0)
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	build := func(w *world.World) (world.Gamemode, error) {
		return New(w, files("main.lua", `dlmp.on("player_connect", function(p) print("hello " .. p.id) end)
			dlmp.on("shutdown", function() print("bye") end)`),
			t0, script.Options{Budget: testBudget, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	}
	gm, err := build(w)
	if err != nil {
		t.Fatal(err)
	}
	fw.Gamemode = gm
	var hello wire.ServerHello
	if _, ok := w.Join(&testConn{t: t}, &hello); !ok {
		t.Fatal("server full")
	}
	gm.(interface{ Shutdown() }).Shutdown()
	for _, want := range []string{"hello 0", "bye"} {
		wantContains(t, logs.String(), want)
	}
	again, err := build(w) // a builder may run again on the same world
	if err != nil {
		t.Fatal(err)
	}
	again.(*Mode).Close()
	if _, err := New(w, files("main.lua", "error('no')"), t0, script.Options{}); err == nil {
		t.Fatal("New of a failing main.lua succeeded")
	}
}
