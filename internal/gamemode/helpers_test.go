package gamemode

import (
	"bytes"
	"io/fs"
	"log/slog"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/config"
	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/script"
	"dlmp/internal/wire"
	"dlmp/internal/world"
)

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

const tick = 50 * time.Millisecond

// testConn is an in-memory world.Conn: it decodes every packet with the
// client's rules and records it.
type testConn struct {
	t       testing.TB
	out     []wire.Packet
	kicked  uint8
	events  uint32
	landing uint32 // event id of the last landing packet
}

func (c *testConn) Send(msg []byte, class lane.Class) error {
	pkt, err := wire.Unmarshal(msg)
	if err != nil {
		c.t.Errorf("sent a packet the client drops: %v", err)
		return nil
	}
	c.events++
	switch pkt.(type) {
	case *wire.SpawnPlayer, *wire.RespawnPlayer, *wire.TeleportPlayer:
		c.landing = c.events
	}
	c.out = append(c.out, pkt)
	return nil
}

func (c *testConn) SendUnreliable([]byte) {}

// Progress: this client acknowledges everything at once.
func (c *testConn) Progress() (queued, acked uint64) { return uint64(c.events), uint64(c.events) }
func (c *testConn) Free() int                        { return 4096 }
func (c *testConn) Kick(reason uint8)                { c.kicked = reason }

func (c *testConn) take() []wire.Packet {
	s := c.out
	c.out = nil
	return s
}

func only[T wire.Packet](ps []wire.Packet) []T {
	var out []T
	for _, p := range ps {
		if v, ok := p.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// fixture is a real world driven by a real Lua gamemode, on virtual time.
type fixture struct {
	t    testing.TB
	w    *world.World
	m    *Mode
	now  time.Time
	logs *bytes.Buffer
	seq  map[*world.Player]uint32
}

// files makes a gamemode folder.
func files(kv ...string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for i := 0; i+1 < len(kv); i += 2 {
		fsys[kv[i]] = &fstest.MapFile{Data: []byte(kv[i+1])}
	}
	return fsys
}

func newFixture(t testing.TB, fsys fs.FS) *fixture {
	t.Helper()
	f, err := startFixture(t, fsys)
	if err != nil {
		t.Fatalf("Start: %v\nlogs:\n%s", err, f.logs)
	}
	return f
}

func startFixture(t testing.TB, fsys fs.FS) (*fixture, error) {
	t.Helper()
	return startFixtureBudget(t, fsys, testBudget)
}

// newFixtureBudget is newFixture with a callback budget.
func newFixtureBudget(t testing.TB, fsys fs.FS, budget time.Duration) *fixture {
	t.Helper()
	f, err := startFixtureBudget(t, fsys, budget)
	if err != nil {
		t.Fatalf("Start: %v\nlogs:\n%s", err, f.logs)
	}
	return f
}

func startFixtureBudget(t testing.TB, fsys fs.FS, budget time.Duration) (*fixture, error) {
	t.Helper()
	f := &fixture{t: t, m: &Mode{}, now: t0, logs: &bytes.Buffer{}, seq: map[*world.Player]uint32{}}
	w, err := world.New(config.Default(), f.m, t0)
	if err != nil {
		t.Fatal(err)
	}
	f.w = w
	err = f.m.Start(w, fsys, t0, script.Options{Name: "test", Budget: budget, Log: slog.New(slog.NewTextHandler(f.logs, nil))})
	if err == nil {
		t.Cleanup(f.m.Close)
	}
	return f, err
}

// lua runs a chunk in the gamemode's VM and fails the test on error.
func (f *fixture) lua(src string) {
	f.t.Helper()
	if err := f.m.Runtime().L.DoString(src); err != nil {
		f.t.Fatalf("lua: %v", err)
	}
}

// luaErr runs a chunk that must fail and returns its message.
func (f *fixture) luaErr(src string) string {
	f.t.Helper()
	err := f.m.Runtime().L.DoString(src)
	if err == nil {
		f.t.Fatalf("lua %q: no error", src)
	}
	return err.Error()
}

func (f *fixture) global(name string) lua.LValue { return f.m.Runtime().L.GetGlobal(name) }

// noErrors fails when a callback failed.
func (f *fixture) noErrors() {
	f.t.Helper()
	if n := f.m.Runtime().Errors(); n != 0 {
		f.t.Fatalf("%d callbacks failed:\n%s", n, f.logs)
	}
}

func (f *fixture) join() (*world.Player, *testConn) {
	f.t.Helper()
	c := &testConn{t: f.t}
	var hello wire.ServerHello
	p, ok := f.w.Join(c, &hello)
	if !ok {
		f.t.Fatal("server full")
	}
	return p, c
}

// advance moves virtual time: the world ticks, then the gamemode's timers.
func (f *fixture) advance(d time.Duration) {
	for end := f.now.Add(d); f.now.Before(end); {
		f.now = f.now.Add(min(tick, end.Sub(f.now)))
		f.w.Tick(f.now)
		f.m.Tick(f.now)
	}
}

// sync sends p's client a PlayerSync at pos with health and state.
func (f *fixture) sync(p *world.Player, c *testConn, pos grid.Vec, health, state uint8) {
	f.t.Helper()
	f.seq[p]++
	sc := p.Scope()
	s := &wire.PlayerSync{Token: 1, Seq: f.seq[p], Landed: c.landing, State: state, X: pos.X, Y: pos.Y, Z: pos.Z,
		Health: health, Armour: p.Armour(), Interior: sc.Interior, World: uint32(sc.World)}
	f.w.Packet(p, s, f.now)
}

// spawn spawns p at pos from Go and confirms the landing.
func (f *fixture) spawn(p *world.Player, c *testConn, pos grid.Vec) {
	f.t.Helper()
	if err := f.w.Spawn(p, world.SpawnParams{Landing: world.Landing{Pos: pos}, Skin: 1, Health: 100}); err != nil {
		f.t.Fatal(err)
	}
	f.sync(p, c, pos, 100, 1)
}

func (f *fixture) touch(p *world.Player, id uint32) {
	f.w.Packet(p, &wire.PickupTouch{Token: 1, PickupID: id}, f.now)
}

func (f *fixture) chat(p *world.Player, text string) {
	var m wire.ClientChat
	m.Token = 1
	if !m.Text.Set(text) {
		f.t.Fatalf("chat %q too long", text)
	}
	f.w.Packet(p, &m, f.now)
}

func wantContains(t *testing.T, got, want string) {
	t.Helper()
	if !strings.Contains(got, want) {
		t.Fatalf("got %q, want it to contain %q", got, want)
	}
}

// testBudget is generous: the test machine is shared and loaded, and no
// test here is about the budget (package script tests it).
const testBudget = 5 * time.Second
