package gamemode

import (
	"strings"
	"testing"
	"testing/fstest"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/script"
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
