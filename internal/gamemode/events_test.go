package gamemode

import (
	"reflect"
	"strings"
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
	"dlmp/internal/world"
)

// logLines returns the global table `log` as strings.
func (f *fixture) logLines() []string {
	var got []string
	f.global("log").(*lua.LTable).ForEach(func(_, v lua.LValue) { got = append(got, v.String()) })
	return got
}

// A player's handle is the same userdata from connect to disconnect; after
// it, its methods raise "player N left", and the reused id gets a new one.
func TestPlayerHandles(t *testing.T) {
	f := newFixture(t, files("main.lua", `
		dlmp.on("player_connect", function(p) first = p end)
		dlmp.on("player_disconnect", function(p, reason)
			assert(p == first and p:is_connected(), "valid during its disconnect")
			gone = p
		end)
	`))
	p, c := f.join()
	f.spawn(p, c, grid.Vec{X: 1, Y: 2, Z: 3})
	f.lua(`
		assert(dlmp.get_player(0) == first and first.id == 0, "one handle per player")
		assert(tostring(first) == "player 0")
		local all = dlmp.players()
		assert(#all == 1 and all[1] == first)
		local x, y, z = first:position()
		assert(x == 1 and y == 2 and z == 3)
		assert(first:world() == 0 and first:interior() == 0 and first:skin() == 1)
	`)
	f.w.Leave(p, wire.ReasonQuit)
	f.lua(`assert(not gone:is_connected()); assert(dlmp.get_player(0) == nil); assert(#dlmp.players() == 0)`)
	for _, src := range []string{`gone:health()`, `gone:give_health(5)`, `gone:kick()`, `dlmp.take_pickup(gone, 1)`} {
		wantContains(t, f.luaErr(src), "player 0 left")
	}
	f.join() // the same id again: a new handle
	f.lua(`local p = dlmp.get_player(0); assert(p ~= gone and p ~= nil and p:is_connected())`)
	wantContains(t, f.luaErr(`gone:health()`), "player 0 left")
	f.noErrors()
}

func TestEventsInOrder(t *testing.T) {
	f := newFixture(t, files("main.lua", `
		log = {}
		local function add(s) log[#log + 1] = s end
		dlmp.on("player_connect", function(p) add("connect " .. p.id .. " " .. p:life()); first = p end)
		dlmp.on("player_spawn", function(p) add("spawn " .. p.id .. " " .. p:life() .. " " .. p:health()) end)
		dlmp.on("player_death", function(p) add("death " .. p.id .. " " .. p:life()) end)
		dlmp.on("chat", function(p, text) add("chat " .. p.id .. " " .. text) end)
		dlmp.on("player_waypoint", function(p, x, y) add("waypoint " .. p.id .. " " .. tostring(x) .. " " .. tostring(y)) end)
		dlmp.on("player_disconnect", function(p, reason)
			add("disconnect " .. p.id .. " " .. reason .. " " .. tostring(p:is_connected()))
		end)
	`))
	p, c := f.join()
	f.spawn(p, c, grid.Vec{X: 1, Y: 2, Z: 3})
	f.chat(p, "hello there")
	f.w.Packet(p, &wire.PlayerWaypoint{Token: 1, Active: 1, X: 100, Y: -50}, f.now)
	f.w.Packet(p, &wire.PlayerWaypoint{Token: 1, Active: 0}, f.now)
	f.advance(time.Second)
	f.sync(p, c, grid.Vec{X: 1, Y: 2, Z: 3}, 0, 4) // dead
	f.lua(`first:respawn(5, 5, 3)`)
	f.w.Leave(p, wire.ReasonQuit)
	f.join()
	want := []string{
		"connect 0 not_spawned",
		"spawn 0 alive 100",
		"chat 0 hello there",
		"waypoint 0 100 -50",
		"waypoint 0 nil nil",
		"death 0 dead",
		"spawn 0 alive 100",
		"disconnect 0 quit true",
		"connect 0 not_spawned",
	}
	if got := f.logLines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	f.noErrors()
}

func TestShutdownEvent(t *testing.T) {
	f := newFixture(t, files("main.lua", `dlmp.on("shutdown", function() print("bye from shutdown") end)`))
	f.m.Close()
	wantContains(t, f.logs.String(), "bye from shutdown")
	f.m.Close() // twice is harmless
	p, _ := f.join()
	f.w.Leave(p, wire.ReasonQuit) // events after Close are ignored
}

// A failing handler is logged with its traceback and the next handler,
// and the next event, still run.
func TestErrorInCallbackDoesNotStopNext(t *testing.T) {
	f := newFixture(t, files("main.lua", `
		n = 0
		dlmp.on("chat", function(p, text) p:give_health(500) end) -- raises: the rule
		dlmp.on("chat", function(p, text) n = n + 1 end)
		dlmp.on("chat", function(p, text) error("plain error") end)
		dlmp.on("chat", function(p, text) n = n + 1 end)
	`))
	p, c := f.join()
	f.spawn(p, c, grid.Vec{Z: 3})
	f.chat(p, "a")
	f.chat(p, "b")
	if got := f.global("n"); got != lua.LNumber(4) {
		t.Fatalf("n = %v, want 4", got)
	}
	if got := f.m.Runtime().Errors(); got != 4 {
		t.Fatalf("Errors() = %d, want 4", got)
	}
	logs := f.logs.String()
	for _, want := range []string{"give_health: amount: must be an integer 0..255, got 500", "plain error", "main.lua:3", "stack traceback"} {
		wantContains(t, logs, want)
	}
}

func TestEventWithoutHandlerAllocatesNothing(t *testing.T) {
	f := newFixture(t, files("main.lua", `-- no handlers`))
	p, c := f.join()
	f.spawn(p, c, grid.Vec{Z: 3})
	allocs := testing.AllocsPerRun(100, func() { f.m.Chat(p, "hi"); f.m.PlayerDeath(p) })
	if allocs != 0 {
		t.Fatalf("events without handlers allocate %v times", allocs)
	}
}

// Every event of world.Gamemode is raised in Lua. Mode embeds world.Base
// so that a world with a new event still builds; this test then names the
// event to bind (events.go, docs/lua-api.md).
func TestEveryWorldEventIsBound(t *testing.T) {
	bound := map[string]string{
		"PlayerJoin":      "player_connect",
		"PlayerLeave":     "player_disconnect",
		"PlayerSpawn":     "player_spawn",
		"PlayerDeath":     "player_death",
		"Chat":            "chat",
		"PickupInteract":  "pickup_interact",
		"PlayerWaypoint":  "player_waypoint",
		"CheckpointEnter": "checkpoint_enter",
		"CheckpointLeave": "checkpoint_leave",
		"ColshapeEnter":   "colshape_enter",
		"ColshapeLeave":   "colshape_leave",
		"ObjectMoveEnd":   "object_move_end",
		"EntityEdit":      "entity_edit",
	}
	gm := reflect.TypeFor[world.Gamemode]()
	for i := range gm.NumMethod() {
		name := gm.Method(i).Name
		if _, ok := bound[name]; !ok {
			t.Errorf("world event %s is not raised in Lua: bind it in internal/gamemode/events.go and document it in docs/lua-api.md", name)
		}
	}
	if gm.NumMethod() != len(bound) {
		t.Errorf("world.Gamemode has %d events, %d are bound", gm.NumMethod(), len(bound))
	}
}

// An event a handler's command raises runs after that handler, not inside
// it: order is kept, and a runaway handler is still stopped after it
// (a nested callback would have ended the outer one's budget watch).
func TestChainedEventsRunAfterTheHandler(t *testing.T) {
	f := newFixture(t, files("main.lua", `
		log = {}
		dlmp.on("player_connect", function(p)
			p:spawn(0, 0, 3)
			log[#log + 1] = "connect done"
		end)
		dlmp.on("player_spawn", function(p) log[#log + 1] = "spawn " .. p:life() end)
		dlmp.on("player_death", function(p)
			dlmp.set_timer(1000, function()
				p:respawn(0, 0, 3)
				log[#log + 1] = "timer done"
			end)
		end)
	`))
	p, c := f.join()
	f.sync(p, c, grid.Vec{Z: 3}, 0, 4) // dies
	f.advance(time.Second)
	want := "connect done, spawn alive, timer done, spawn alive"
	if got := strings.Join(f.logLines(), ", "); got != want {
		t.Fatalf("events: %s, want %s", got, want)
	}

	// A runaway in a handler after a chained event: the budget still holds.
	f2 := newFixtureBudget(t, files("main.lua", `
		dlmp.on("player_spawn", function(p) end)
		dlmp.on("player_connect", function(p) p:spawn(0, 0, 3); local i = 0; while true do i = i + 1 end end)
		dlmp.on("player_spawn", function(p) spawned = true end)
	`), 30*time.Millisecond)
	done := make(chan struct{})
	go func() { f2.join(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a runaway handler that raised an event was not stopped")
	}
	if f2.global("spawned") != lua.LTrue {
		t.Fatal("the chained player_spawn did not run after the stopped handler")
	}
}

// A handler that raises its own event again is cut at MaxChained.
func TestChainLimit(t *testing.T) {
	f := newFixture(t, files("main.lua", `
		n = 0
		dlmp.on("player_spawn", function(p) n = n + 1; p:spawn(0, 0, 3) end)
	`))
	p, _ := f.join()
	if err := f.w.Spawn(p, world.SpawnParams{Landing: world.Landing{Pos: grid.Vec{Z: 3}}, Skin: 1, Health: 100}); err != nil {
		t.Fatal(err)
	}
	if got := f.global("n"); got != lua.LNumber(MaxChained+1) {
		t.Fatalf("spawn handler ran %v times, want %d", got, MaxChained+1)
	}
	if f.m.Dropped() != 1 {
		t.Fatalf("Dropped() = %d, want 1", f.m.Dropped())
	}
	wantContains(t, f.logs.String(), "too many events")
}
