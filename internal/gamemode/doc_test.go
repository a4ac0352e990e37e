package gamemode

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
	"dlmp/internal/world"
)

// docFile is the Lua API reference whose examples this test runs.
const docFile = "../../docs/lua-api.md"

var luaBlock = regexp.MustCompile("(?s)\n```lua\n(.*?)\n```")

// docExamples returns the ```lua blocks of docs/lua-api.md with the
// heading above each.
func docExamples(t *testing.T) (names, srcs []string) {
	t.Helper()
	doc, err := os.ReadFile(docFile)
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	for _, m := range luaBlock.FindAllStringSubmatchIndex(text, -1) {
		head := text[:m[0]]
		name := "example"
		if i := strings.LastIndex(head, "\n#"); i >= 0 {
			name = strings.TrimLeft(strings.SplitN(head[i+1:], "\n", 2)[0], "# ")
		}
		names = append(names, name)
		srcs = append(srcs, text[m[2]:m[3]])
	}
	return names, srcs
}

// Every example of docs/lua-api.md runs as the main.lua of a real world,
// then a player lives through a scripted session (the document's
// introduction describes it). Any error fails the test.
func TestDocExamples(t *testing.T) {
	names, srcs := docExamples(t)
	if len(srcs) < 25 {
		t.Fatalf("found %d examples in %s, want at least 25", len(srcs), docFile)
	}
	example, err := os.ReadFile("testdata/example.map")
	if err != nil {
		t.Fatal(err)
	}
	for i, src := range srcs {
		t.Run(names[i], func(t *testing.T) {
			fsys := files("main.lua", src)
			fsys["maps/example.map"] = &fstest.MapFile{Data: example}
			f := newFixture(t, fsys)
			f.session()
			f.noErrors()
			f.m.Close()
			f.noErrorsAfterClose()
			if t.Failed() {
				t.Logf("example:\n%s", src)
			}
		})
	}
}

// session is the scripted life of one player the doc examples run under.
func (f *fixture) session() {
	f.t.Helper()
	p, c := f.join()
	if p.Life() == world.NotSpawned {
		f.spawn(p, c, grid.Vec{Z: 3})
	}
	here := func(health uint8, state uint8) {
		if pos, ok := p.Position(); ok {
			f.sync(p, c, pos, health, state)
		}
	}
	here(100, 1)
	f.advance(time.Second)
	here(60, 1) // damage
	f.chat(p, "hello")
	f.chat(p, "/heal")
	f.w.Packet(p, &wire.PlayerWaypoint{Token: 1, Active: 1, X: 100, Y: 200}, f.now)
	f.advance(time.Second)
	here(p.Health(), 1)
	for id := uint32(1); id < 100; id++ {
		pk := f.w.Pickup(id)
		if pk == nil || !p.PickupShown(id) || p.Life() != world.Alive {
			continue
		}
		f.advance(time.Second)
		f.sync(p, c, pk.Position(), p.Health(), 1)
		f.advance(tick)
		f.touch(p, id)
	}
	f.advance(10 * time.Second)
	if p.Life() == world.Alive {
		here(0, 4) // death
	}
	f.advance(5 * time.Second)
	f.w.Leave(p, wire.ReasonQuit)
	f.advance(time.Second)
}

// Every function of the dlmp module, every method and every event the
// Mode raises is documented in a heading or table of docs/lua-api.md and
// used in at least one of its examples.
func TestDocCoversTheAPI(t *testing.T) {
	doc, err := os.ReadFile(docFile)
	if err != nil {
		t.Fatal(err)
	}
	_, srcs := docExamples(t)
	examples := strings.Join(srcs, "\n")
	f := newFixture(t, files("main.lua", ""))
	var names []string // as the doc writes them
	f.m.Runtime().DLMP().ForEach(func(k, _ lua.LValue) { names = append(names, "dlmp."+k.String()+"(") })
	for _, k := range append([]*kind{f.m.kinds.player}, f.m.kinds.idKinds()...) {
		k.methods.ForEach(func(m, _ lua.LValue) { names = append(names, ":"+m.String()+"(") })
	}
	for _, ev := range []string{"player_connect", "player_disconnect", "player_spawn", "player_death", "chat",
		"pickup_interact", "player_waypoint", "shutdown",
		"checkpoint_enter", "checkpoint_leave", "colshape_enter", "colshape_leave", "object_move_end"} {
		names = append(names, `"`+ev+`"`)
	}
	for _, n := range names {
		if !strings.Contains(string(doc), strings.Trim(n, `"`)) {
			t.Errorf("%s is not documented in %s", n, docFile)
		}
		call := n
		if strings.HasPrefix(n, "dlmp.") {
			call = strings.TrimSuffix(n, "(")
		}
		if strings.HasPrefix(n, ":") {
			// methods are called as p:name( or passed as p.name to pcall
			if !strings.Contains(examples, n) && !strings.Contains(examples, "."+strings.TrimPrefix(n, ":")[:len(n)-2]+",") {
				t.Errorf("no example calls %s", n)
			}
			continue
		}
		if !strings.Contains(examples, call) {
			t.Errorf("no example uses %s", call)
		}
	}
}
