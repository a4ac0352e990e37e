package world

import (
	"errors"
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

const tick = 50 * time.Millisecond

func (f *fixture) pickup(pp PickupParams) uint32 {
	f.t.Helper()
	if pp.Model == 0 {
		pp.Model = 1240 // health
	}
	id, err := f.w.CreatePickup(pp)
	if err != nil {
		f.t.Fatal(err)
	}
	return id
}

// shows and hides split the PickupSyncs of ss, checking each is critical.
func pickupOps(t *testing.T, ss []sent) (shows, hides []*wire.PickupSync) {
	t.Helper()
	for _, s := range ss {
		ps, ok := s.pkt.(*wire.PickupSync)
		if !ok {
			continue
		}
		if s.class != lane.Critical {
			t.Errorf("PickupSync %d sent %v, want critical", ps.PickupID, s.class)
		}
		if ps.Active == 1 {
			shows = append(shows, ps)
		} else {
			hides = append(hides, ps)
		}
	}
	return shows, hides
}

func TestCreatePickupUsesWireRules(t *testing.T) {
	f := newFixture(t, nil)
	tests := []struct {
		name string
		pp   PickupParams
		arg  string
	}{
		{"ped model", PickupParams{Model: 7}, "model"},
		{"vehicle model", PickupParams{Model: 411}, "model"},
		{"above the table", PickupParams{Model: 20000}, "model"},
		{"x past 4095", PickupParams{Model: 1240, Pos: grid.Vec{X: 4095.5}}, "x"},
		{"z below world", PickupParams{Model: 1240, Pos: grid.Vec{Z: -201}}, "z"},
		{"scale", PickupParams{Model: 1240, Scale: 10.5}, "scale"},
		{"behavior", PickupParams{Model: 1240, Behavior: 3}, "behavior"},
		{"respawn", PickupParams{Model: 1240, Respawn: -time.Second}, "respawn"},
	}
	for _, tt := range tests {
		_, err := f.w.CreatePickup(tt.pp)
		wantArgErr(t, err, "create_pickup", tt.arg)
		var we *wire.Error
		if tt.arg != "behavior" && tt.arg != "respawn" && (!errors.As(err, &we) || we.Packet != "PickupSync") {
			t.Errorf("%s: got %v, want PickupSync's send rule", tt.name, err)
		}
	}
	for _, m := range []uint32{321, 373, 1240} {
		if _, err := f.w.CreatePickup(PickupParams{Model: m, Pos: grid.Vec{X: -4095, Y: 4095, Z: 4000}, Scale: 0.1}); err != nil {
			t.Errorf("model %d at the edge: %v", m, err)
		}
	}
}

func TestPickupStreamingByDistanceAndScope(t *testing.T) {
	f := newFixture(t, nil) // draw distance 100 m
	p, c := f.join()
	near := f.pickup(PickupParams{Pos: grid.Vec{X: 99}})
	far := f.pickup(PickupParams{Pos: grid.Vec{X: 101}})
	other := f.pickup(PickupParams{Pos: grid.Vec{X: 1}, Scope: grid.Scope{World: 1}})
	inside := f.pickup(PickupParams{Pos: grid.Vec{X: 1}, Scope: grid.Scope{Interior: 3}})
	if len(c.out) != 0 {
		t.Fatal("pickups were shown before the player had a position")
	}
	f.spawn(p, c, grid.Vec{})
	f.advance(tick)
	shows, _ := pickupOps(t, c.take())
	if len(shows) != 1 || shows[0].PickupID != near || shows[0].Rev != 1 || shows[0].Highlight != 1 {
		t.Fatalf("got shows %+v, want only pickup %d", shows, near)
	}
	for _, id := range []uint32{far, other, inside} {
		if p.PickupShown(id) {
			t.Errorf("pickup %d shown, want not", id)
		}
	}
	// Moving shows the far one and removes the near one.
	for x := float32(5); x <= 200; x += 5 {
		f.now = f.now.Add(tick)
		f.sync(p, c, grid.Vec{X: x}, 1)
		f.w.Tick(f.now)
	}
	shows, hides := pickupOps(t, c.take())
	if len(shows) != 1 || shows[0].PickupID != far || len(hides) != 1 || hides[0].PickupID != near {
		t.Fatalf("at x 200 got shows %+v hides %+v, want show %d, hide %d", shows, hides, far, near)
	}
	// A teleport into the interior shows what is there and hides the rest.
	if err := f.w.Teleport(p, Landing{Pos: grid.Vec{}, Interior: 3}); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	shows, hides = pickupOps(t, c.take())
	if len(shows) != 1 || shows[0].PickupID != inside || len(hides) != 1 || hides[0].PickupID != far {
		t.Fatalf("in interior 3 got shows %+v hides %+v, want show %d, hide %d", shows, hides, inside, far)
	}
}

func TestPickupMoveDeleteAndReconnect(t *testing.T) {
	f := newFixture(t, nil)
	a, ca := f.join()
	b, cb := f.join()
	f.spawn(a, ca, grid.Vec{})
	f.spawn(b, cb, grid.Vec{X: 1000})
	id := f.pickup(PickupParams{Pos: grid.Vec{X: 10}})
	f.advance(tick)
	ca.take()
	// A move is a show with a new rev, critical, to whom it is streamed.
	if err := f.w.MovePickup(id, grid.Vec{X: 20, Y: 5}); err != nil {
		t.Fatal(err)
	}
	shows, _ := pickupOps(t, ca.take())
	if len(shows) != 1 || shows[0].Rev != 2 || shows[0].X != 20 || shows[0].Y != 5 {
		t.Fatalf("got %+v, want a show at (20, 5) with rev 2", shows)
	}
	if n := len(cb.take()); n != 0 {
		t.Fatalf("a player the pickup is not streamed to got %d packets", n)
	}
	wantArgErr(t, f.w.MovePickup(id, grid.Vec{Y: 5000}), "set_position", "y")
	// A move out of a's range and into b's.
	if err := f.w.MovePickup(id, grid.Vec{X: 990}); err != nil {
		t.Fatal(err)
	}
	_, hides := pickupOps(t, ca.take())
	shows, _ = pickupOps(t, cb.take())
	if len(hides) != 1 || len(shows) != 1 || shows[0].Rev != 3 {
		t.Fatalf("got hides %+v to a, shows %+v to b; want one each, rev 3", hides, shows)
	}
	// A new connection receives the visible pickups again.
	f.w.Leave(b, wire.ReasonTimeout)
	b2, cb2 := f.join()
	f.spawn(b2, cb2, grid.Vec{X: 1000})
	f.advance(tick)
	if shows, _ := pickupOps(t, cb2.take()); len(shows) != 1 || shows[0].PickupID != id {
		t.Fatalf("reconnected player got %+v, want pickup %d again", shows, id)
	}
	if err := f.w.DeletePickup(id); err != nil {
		t.Fatal(err)
	}
	if _, hides := pickupOps(t, cb2.take()); len(hides) != 1 || hides[0].PickupID != id {
		t.Fatalf("delete: got %+v, want a remove of %d", hides, id)
	}
	if err := f.w.DeletePickup(id); !errors.Is(err, ErrState) {
		t.Fatalf("second delete: got %v, want ErrState", err)
	}
}

func TestCollectWithRespawn(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, grid.Vec{})
	id := f.pickup(PickupParams{Pos: grid.Vec{X: 1}, Respawn: 10 * time.Second})
	f.advance(tick)
	c.take()
	if err := f.w.CollectPickup(id); err != nil {
		t.Fatal(err)
	}
	if _, hides := pickupOps(t, c.take()); len(hides) != 1 {
		t.Fatalf("got %d removes, want 1", len(hides))
	}
	if f.w.Pickup(id).Active() || p.PickupShown(id) {
		t.Fatal("a collected pickup is still active or shown")
	}
	if err := f.w.CollectPickup(id); !errors.Is(err, ErrState) {
		t.Fatalf("collecting an inactive pickup: got %v, want ErrState", err)
	}
	f.advance(9 * time.Second)
	if len(c.take()) != 0 {
		t.Fatal("shown again before its respawn")
	}
	f.advance(time.Second)
	if shows, _ := pickupOps(t, c.take()); len(shows) != 1 || shows[0].PickupID != id {
		t.Fatalf("after the respawn got %+v, want the pickup shown again", shows)
	}
	// Without a respawn, collecting deletes.
	once := f.pickup(PickupParams{Pos: grid.Vec{X: 2}})
	f.advance(tick)
	if err := f.w.CollectPickup(once); err != nil {
		t.Fatal(err)
	}
	if f.w.Pickup(once) != nil {
		t.Fatal("a pickup without respawn survived its collection")
	}
}

func TestStreamingRespectsQueueRoom(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	for i := range 50 {
		f.pickup(PickupParams{Pos: grid.Vec{X: float32(i)}})
	}
	f.spawn(p, c, grid.Vec{})
	c.free = SendReserve + 20
	f.advance(tick)
	if shows, _ := pickupOps(t, c.take()); len(shows) != 20 || shows[0].X != 0 || shows[19].X != 19 {
		t.Fatalf("got %d shows, want the 20 nearest that fit above the reserve", len(shows))
	}
	if c.free != SendReserve {
		t.Fatalf("got %d free slots, want the reserve %d kept", c.free, SendReserve)
	}
	c.free = 1000
	f.advance(tick) // the player did not move: the pending work alone drives this pass
	if shows, _ := pickupOps(t, c.take()); len(shows) != 30 {
		t.Fatalf("got %d shows on the next tick, want the other 30", len(shows))
	}
}
