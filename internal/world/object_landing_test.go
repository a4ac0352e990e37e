package world

import (
	"errors"
	"slices"
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// landingWorld has p at the origin with 3 objects shown around it, and 40
// objects at (1000, 0) at 1..40 m from it, created farthest first.
func landingWorld(t *testing.T) (*fixture, *Player, *testConn, []uint32, []uint32) {
	t.Helper()
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, at(0, 0))
	var home []uint32
	for i := range 3 {
		home = append(home, f.object(ObjectParams{Pos: at(float32(i+1), 0)}))
	}
	landing := make([]uint32, 40) // landing[i] is i+1 m from the point
	for i := 39; i >= 0; i-- {
		landing[i] = f.object(ObjectParams{Pos: at(1000, float32(i+1))})
	}
	f.advance(tick)
	c.ackAll()
	if shows, _ := objectOps(t, c.take()); len(shows) != 3 {
		t.Fatalf("got %d shows at home, want 3", len(shows))
	}
	return f, p, c, home, landing
}

// beforeTeleport returns what was queued before the TeleportPlayer in ss,
// and whether there was one.
func beforeTeleport(ss []sent) ([]sent, bool) {
	for i, s := range ss {
		if _, ok := s.pkt.(*wire.TeleportPlayer); ok {
			return ss[:i], true
		}
	}
	return ss, false
}

func TestTeleportFloorTakesTheReserve(t *testing.T) {
	f, p, c, home, landing := landingWorld(t)
	c.free = 50 // 18 above the reserve: the floor of 31 takes the reserve too
	if err := f.w.Teleport(p, Landing{Pos: at(1000, 0)}); err != nil {
		t.Fatal(err)
	}
	got := c.take()
	before, ok := beforeTeleport(got)
	if !ok || len(before) != Floor || len(got) != Floor+1 {
		t.Fatalf("got %d packets, %d before TeleportPlayer (found %v), want the %d floor shows then it", len(got), len(before), ok, Floor)
	}
	shows, hides := objectOps(t, before)
	if len(hides) != 0 || !slices.Equal(showIDs(shows), landing[:Floor]) {
		t.Fatalf("before the teleport: got shows %v hides %v, want the %d nearest the landing, nearest first", showIDs(shows), hides, Floor)
	}
	if c.free != 50-Floor-1 {
		t.Fatalf("got %d free, want %d", c.free, 50-Floor-1)
	}
	// The rest follows once there is room: the other 9 and the hides of home.
	c.ackAll()
	f.sync(p, c, at(1000, 0), 1)
	f.advance(tick)
	shows, hides = objectOps(t, c.take())
	if !slices.Equal(showIDs(shows), landing[Floor:]) || !sameSet(hides, home) {
		t.Fatalf("next pass: got shows %v hides %v, want the other 9 and the 3 hides", showIDs(shows), hides)
	}
}

func TestTeleportShowsGoBeforeHides(t *testing.T) {
	f, p, c, home, landing := landingWorld(t)
	if err := f.w.Teleport(p, Landing{Pos: at(1000, 0)}); err != nil {
		t.Fatal(err)
	}
	before, ok := beforeTeleport(c.take())
	if !ok {
		t.Fatal("no TeleportPlayer")
	}
	var order []bool // true = show
	for _, s := range before {
		if o, ok := s.pkt.(*wire.ObjectState); ok {
			order = append(order, o.Active == 1)
		}
	}
	if len(order) != len(landing)+len(home) {
		t.Fatalf("got %d ObjectStates before the teleport, want %d", len(order), len(landing)+len(home))
	}
	for i, show := range order {
		if show != (i < len(landing)) {
			t.Fatalf("ObjectState %d: show = %v; want every show before every hide", i, show)
		}
	}
}

func TestTeleportRefusedWithoutRoomForTheFloor(t *testing.T) {
	f, p, c, home, landing := landingWorld(t)
	c.free = Floor // the floor fits, the teleport does not
	err := f.w.Teleport(p, Landing{Pos: at(1000, 0), Interior: 0})
	if !errors.Is(err, ErrState) {
		t.Fatalf("got %v, want a refusal (ErrState)", err)
	}
	if got := c.take(); len(got) != 0 {
		t.Fatalf("a refused teleport sent %d packets", len(got))
	}
	if pos, _ := p.Position(); pos != at(0, 0) {
		t.Fatalf("a refused teleport moved the player to %v", pos)
	}
	for _, id := range landing {
		if f.w.StreamedTo(KindObject, id, p) {
			t.Fatal("a refused teleport recorded a show")
		}
	}
	for _, id := range home {
		if !f.w.StreamedTo(KindObject, id, p) {
			t.Fatal("a refused teleport recorded a hide")
		}
	}
	// One more slot and it goes.
	c.free = Floor + 1
	if err := f.w.Teleport(p, Landing{Pos: at(1000, 0)}); err != nil {
		t.Fatalf("with room for the floor and the teleport: %v", err)
	}
	if _, ok := beforeTeleport(c.take()); !ok || c.free != 0 {
		t.Fatalf("got no teleport or %d free, want it sent with the last slot", c.free)
	}
}

func TestSpawnHeldUntilObjectsAcked(t *testing.T) {
	f := newFixture(t, nil)
	var objs []uint32
	for i := range 5 {
		objs = append(objs, f.object(ObjectParams{Pos: at(500+float32(i), 0)}))
	}
	p, c := f.join()
	if err := f.w.Spawn(p, SpawnParams{Landing: Landing{Pos: at(500, 0)}, Skin: 1, Health: 100}); err != nil {
		t.Fatal(err)
	}
	got := c.take()
	shows, _ := objectOps(t, got)
	if !slices.Equal(showIDs(shows), objs) || len(only[*wire.SpawnPlayer](got)) != 0 {
		t.Fatalf("got shows %v and %d SpawnPlayer, want the objects at the point queued and the spawn held",
			showIDs(shows), len(only[*wire.SpawnPlayer](got)))
	}
	if !p.Holding() || p.Life() != NotSpawned {
		t.Fatal("the spawn is not held")
	}
	f.advance(tick)
	c.acked = c.events - 1 // all but the last object
	f.advance(tick)
	if got := c.take(); len(got) != 0 || p.Life() != NotSpawned {
		t.Fatalf("sent %v before every object was acknowledged", got)
	}
	c.ackAll()
	f.advance(tick)
	got = c.take()
	if sp := only[*wire.SpawnPlayer](got); len(sp) != 1 || sp[0].X != 500 || p.Life() != Alive {
		t.Fatalf("got %v, want SpawnPlayer once every object was acknowledged", got)
	}
	if f.gm.log[len(f.gm.log)-1] != "spawn" {
		t.Fatalf("got events %v, want the spawn event with the grant", f.gm.log)
	}

	// Respawn waits the same way, for the objects at its own point.
	f.sync(p, c, at(500, 0), 4)
	far := f.object(ObjectParams{Pos: at(-500, 0)})
	if err := f.w.Respawn(p, Landing{Pos: at(-500, 0)}); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	got = c.take()
	if shows, _ := objectOps(t, got); !slices.Equal(showIDs(shows), []uint32{far}) || len(only[*wire.RespawnPlayer](got)) != 0 {
		t.Fatalf("got %v, want the object at the respawn point and the respawn held", got)
	}
	c.ackAll()
	f.advance(tick)
	if got := only[*wire.RespawnPlayer](c.take()); len(got) != 1 || p.Life() != Alive {
		t.Fatal("RespawnPlayer not sent after the ack")
	}
}

func TestSpawnWithNoObjectsGoesAtOnce(t *testing.T) {
	f := newFixture(t, nil)
	f.object(ObjectParams{Pos: at(2000, 0)}) // far from the point
	p, c := f.join()
	if err := f.w.Spawn(p, SpawnParams{Landing: Landing{Pos: grid.Vec{}}, Skin: 1, Health: 100}); err != nil {
		t.Fatal(err)
	}
	if len(only[*wire.SpawnPlayer](c.take())) != 1 || p.Holding() {
		t.Fatal("a spawn with no object at its point was held")
	}
}
