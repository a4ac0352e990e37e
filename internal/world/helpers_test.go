package world

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"dlmp/internal/config"
	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// t0 is the start of every test's virtual time.
var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// sent is one packet a testConn queued.
type sent struct {
	pkt   wire.Packet
	class lane.Class
	id    uint32 // the event_id the lane would have given it
}

// testConn is an in-memory Conn: it decodes every packet with the client's
// rules (wire.Unmarshal) and records it. free is the queue room: each
// queued packet takes a slot until ack gives them back; a critical send
// that finds none fails, a droppable one is dropped (as lane.Sender does).
type testConn struct {
	t          *testing.T
	free       int
	out        []sent
	unreliable int
	kicked     uint8
	events     uint32 // event ids given so far
	landing    uint32 // event id of the last landing packet

	acked uint32 // objects: events the client acknowledged (Progress, object_helpers_test.go)
}

func newConn(t *testing.T) *testConn { return &testConn{t: t, free: 4096} }

func (c *testConn) Send(msg []byte, class lane.Class) error {
	c.t.Helper()
	pkt, err := wire.Unmarshal(msg)
	if err != nil {
		c.t.Fatalf("sent a packet the client drops: %v", err)
	}
	if c.free <= 0 {
		if class == lane.Critical {
			return lane.ErrQueueFull
		}
		return nil
	}
	c.free--
	c.events++
	switch pkt.(type) {
	case *wire.SpawnPlayer, *wire.RespawnPlayer, *wire.TeleportPlayer:
		c.landing = c.events
	}
	c.out = append(c.out, sent{pkt: pkt, class: class, id: c.events})
	return nil
}

func (c *testConn) SendUnreliable([]byte) { c.unreliable++ }
func (c *testConn) Free() int             { return c.free }
func (c *testConn) Kick(reason uint8)     { c.kicked = reason }

// take returns what was sent since the last take.
func (c *testConn) take() []sent {
	s := c.out
	c.out = nil
	return s
}

// only returns the packets of type T among ss.
func only[T wire.Packet](ss []sent) []T {
	var out []T
	for _, s := range ss {
		if p, ok := s.pkt.(T); ok {
			out = append(out, p)
		}
	}
	return out
}

// recorder is a Gamemode that records its events and runs hooks.
type recorder struct {
	Base
	log        []string
	touches    []PickupInteraction
	waypoints  []Waypoint
	onJoin     func(*Player)
	onInteract func(PickupInteraction)

	moveEnds  []uint32                              // objects: object_move_end (object_helpers_test.go)
	crossings []string                              // "p0 cp_enter 3" (prims_helpers_test.go)
	onCross   func(p *Player, ev string, id uint32) // runs inside a crossing event

	edits      []Edit          // edit events (edit_test.go)
	acceptEdit func(Edit) bool // decides them; nil refuses
}

func (r *recorder) EntityEdit(e Edit) bool {
	r.edits = append(r.edits, e)
	return r.acceptEdit != nil && r.acceptEdit(e)
}

func (r *recorder) PlayerJoin(p *Player) {
	r.log = append(r.log, "join")
	if r.onJoin != nil {
		r.onJoin(p)
	}
}
func (r *recorder) PlayerLeave(p *Player, reason uint8) { r.log = append(r.log, "leave") }
func (r *recorder) PlayerSpawn(p *Player)               { r.log = append(r.log, "spawn") }
func (r *recorder) PlayerDeath(p *Player)               { r.log = append(r.log, "death") }
func (r *recorder) PickupInteract(e PickupInteraction) {
	r.touches = append(r.touches, e)
	if r.onInteract != nil {
		r.onInteract(e)
	}
}
func (r *recorder) PlayerWaypoint(p *Player, wp Waypoint) { r.waypoints = append(r.waypoints, wp) }

// Checkpoint and colshape events (prims_helpers_test.go).
func (r *recorder) CheckpointEnter(p *Player, id uint32) { r.crossed(p, "cp_enter", id) }
func (r *recorder) CheckpointLeave(p *Player, id uint32) { r.crossed(p, "cp_leave", id) }
func (r *recorder) ColshapeEnter(p *Player, id uint32)   { r.crossed(p, "col_enter", id) }
func (r *recorder) ColshapeLeave(p *Player, id uint32)   { r.crossed(p, "col_leave", id) }

// fixture is a world with a recorder and a virtual clock.
type fixture struct {
	t   *testing.T
	w   *World
	gm  *recorder
	now time.Time
	seq map[*Player]uint32
}

// testConfig is the default config at 20 ticks a second: the tests and
// benchmarks count in ticks of 50 ms (tick) and at 20 Hz's rates (the
// constants of rates_test.go); rates_rules_test.go runs the rules that
// count ticks at 50 Hz too, the server's default.
func testConfig() config.Config {
	c := config.Default()
	c.Server.TickHz = 20
	return c
}

func newFixture(t *testing.T, mod func(*config.Config)) *fixture {
	t.Helper()
	c := testConfig()
	if mod != nil {
		mod(&c)
	}
	gm := &recorder{}
	w, err := New(c, gm, t0)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, w: w, gm: gm, now: t0, seq: map[*Player]uint32{}}
}

func (f *fixture) join() (*Player, *testConn) {
	f.t.Helper()
	c := newConn(f.t)
	var hello wire.ServerHello
	p, ok := f.w.Join(c, &hello)
	if !ok {
		f.t.Fatal("Join: server full")
	}
	return p, c
}

// advance moves virtual time and runs one tick.
func (f *fixture) advance(d time.Duration) {
	f.now = f.now.Add(d)
	f.w.Tick(f.now)
}

// spawn spawns p at pos in the default scope and confirms the landing with
// a sync, then drops what was sent.
func (f *fixture) spawn(p *Player, c *testConn, pos grid.Vec) {
	f.t.Helper()
	f.spawnIn(p, c, pos, grid.Scope{})
}

func (f *fixture) spawnIn(p *Player, c *testConn, pos grid.Vec, sc grid.Scope) {
	f.t.Helper()
	err := f.w.Spawn(p, SpawnParams{Landing: Landing{Pos: pos, Interior: sc.Interior, World: uint32(sc.World)}, Skin: 1, Health: 100})
	if err != nil {
		f.t.Fatal(err)
	}
	f.sync(p, c, pos, 1)
	c.take()
}

// sync sends p's client a PlayerSync at pos with the state, as its client
// would: the next seq, landed = the last landing it received, its scope.
func (f *fixture) sync(p *Player, c *testConn, pos grid.Vec, state uint8) {
	f.syncWith(p, c, pos, func(s *wire.PlayerSync) { s.State = state })
}

func (f *fixture) syncWith(p *Player, c *testConn, pos grid.Vec, mod func(*wire.PlayerSync)) {
	f.t.Helper()
	f.seq[p]++
	s := &wire.PlayerSync{Token: 1, Seq: f.seq[p], Landed: c.landing, State: 1, X: pos.X, Y: pos.Y, Z: pos.Z,
		Health: 100, Interior: p.scope.Interior, World: uint32(p.scope.World)}
	mod(s)
	f.w.Packet(p, s, f.now)
}

// wantArgErr checks that err is an *ArgError for fn and arg.
func wantArgErr(t *testing.T, err error, fn, arg string) {
	t.Helper()
	var ae *ArgError
	if !errors.As(err, &ae) {
		t.Fatalf("got error %v, want an *ArgError of %s(%s)", err, fn, arg)
	}
	if ae.Func != fn || ae.Arg != arg {
		t.Fatalf("got %s(%s): %v, want %s(%s)", ae.Func, ae.Arg, err, fn, arg)
	}
}

// stepRandom walks count players of ps, picked at random, 4.5 m each in a
// random direction (each step announces: longer than EntityRequery).
func (f *fixture) stepRandom(r *rand.Rand, ps []*Player, cs []*testConn, count int) {
	f.t.Helper()
	for range count {
		i := r.IntN(len(ps))
		p := ps[i]
		b := r.Float64() * 2 * math.Pi
		f.walk(p, cs[i], at(p.pos.X+float32(4.5*math.Cos(b)), p.pos.Y+float32(4.5*math.Sin(b))))
	}
}

// startWalk is the start of a randomized step test: a fixture, the random
// source of seed (salted per test), near (a point around the origin,
// normally distributed with the spread given) and n players spawned near
// the origin within spread, acked.
func startWalk(t *testing.T, seed, salt uint64, n int, spread float32) (f *fixture, r *rand.Rand, near func(float32) grid.Vec, ps []*Player, cs []*testConn) {
	t.Helper()
	f, r, near = seeded(t, seed, salt)
	for range n {
		p, c := f.join()
		f.spawnAcked(p, c, near(spread))
		ps, cs = append(ps, p), append(cs, c)
	}
	return f, r, near, ps, cs
}

// walkStep moves every player of ps (clients cs) one random step of a
// length drawn from steps, in a random direction; one that would end past
// 60 m from the origin goes back to near(20) instead.
func (f *fixture) walkStep(r *rand.Rand, near func(float32) grid.Vec, ps []*Player, cs []*testConn, steps []float32) {
	for i, p := range ps {
		step := steps[r.IntN(len(steps))]
		a := r.Float64() * 2 * math.Pi
		pos := p.pos
		pos.X += step * float32(math.Cos(a))
		pos.Y += step * float32(math.Sin(a))
		if grid.Dist2(pos, grid.Vec{}) > 60*60 {
			pos = near(20)
		}
		f.walk(p, cs[i], pos)
	}
}

// lineMover is a player of lineCrowd: its client and its x.
type lineMover struct {
	p  *Player
	c  *testConn
	at float32
}

// lineCrowd spawns NearMoveLimit + 10 players on a line from x = 2 m,
// every 0.5 m: all within NearMoveDistance of the origin, a crowd.
func (f *fixture) lineCrowd() []lineMover {
	var ms []lineMover
	for i := range NearMoveLimit + 10 {
		p, c := f.joinE()
		x := 2 + float32(i)*0.5
		f.spawn(p, c.testConn, at(x, 0))
		ms = append(ms, lineMover{p, c.testConn, x})
	}
	return ms
}

// seeded is the start of a randomized test: a fixture, the random source
// of seed (salted per test) and near, a point around the origin normally
// distributed with the spread given.
func seeded(t *testing.T, seed, salt uint64) (f *fixture, r *rand.Rand, near func(float32) grid.Vec) {
	t.Helper()
	f = newFixture(t, nil)
	r = rand.New(rand.NewPCG(seed, salt))
	near = func(spread float32) grid.Vec {
		return at(float32(r.NormFloat64())*spread, float32(r.NormFloat64())*spread)
	}
	return f, r, near
}
