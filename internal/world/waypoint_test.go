package world

import (
	"math"
	"slices"
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

func (f *fixture) waypoint(p *Player, active uint8, x, y float32) {
	f.w.Packet(p, &wire.PlayerWaypoint{Token: 1, Active: active, X: x, Y: y}, f.now)
}

func spawned(t *testing.T) (*fixture, *Player, *testConn) {
	t.Helper()
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, grid.Vec{})
	return f, p, c
}

func TestWaypointDrops(t *testing.T) {
	nan := float32(math.NaN())
	tests := []struct {
		name   string
		before [][3]float32 // accepted waypoints first: active, x, y
		active uint8
		x, y   float32
	}{
		{"active 2", nil, 2, 0, 0},
		{"x not a number", nil, 1, nan, 0},
		{"y past 3000", nil, 1, 0, 3000.5},
		{"x past -3000", nil, 1, -3001, 0},
		{"none while none is held", nil, 0, 0, 0},
		{"none again", [][3]float32{{1, 5, 5}, {0, 0, 0}}, 0, 0, 0},
		{"within 1 m of the held point", [][3]float32{{1, 100, 100}}, 1, 100.7, 100.7},
		{"exactly 1 m", [][3]float32{{1, 100, 100}}, 1, 101, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, p, _ := spawned(t)
			for _, b := range tt.before {
				f.waypoint(p, uint8(b[0]), b[1], b[2])
			}
			n := len(f.gm.waypoints)
			if n != len(tt.before) {
				t.Fatalf("setup: got %d events, want %d", n, len(tt.before))
			}
			held := p.Waypoint()
			f.waypoint(p, tt.active, tt.x, tt.y)
			if len(f.gm.waypoints) != n || p.Waypoint() != held {
				t.Fatalf("got events %+v, held %+v; want the waypoint dropped", f.gm.waypoints, p.Waypoint())
			}
			if f.w.Stats().WaypointDropped != 1 {
				t.Fatalf("got %d drops, want 1", f.w.Stats().WaypointDropped)
			}
		})
	}
}

func TestWaypointNotSpawnedDropped(t *testing.T) {
	f := newFixture(t, nil)
	p, _ := f.join()
	f.waypoint(p, 1, 10, 10)
	if len(f.gm.waypoints) != 0 || p.Waypoint().Active {
		t.Fatal("a waypoint before the first spawn was held")
	}
}

func TestWaypointChangesAndAcceptedEdges(t *testing.T) {
	f, p, _ := spawned(t)
	f.waypoint(p, 1, 3000, -3000)
	f.waypoint(p, 1, 3000, -2998.9) // 1.1 m away: a change
	f.waypoint(p, 0, 123, 456)      // removal; its x, y mean nothing
	f.waypoint(p, 1, 0, 0)
	want := []Waypoint{{true, 3000, -3000}, {true, 3000, -2998.9}, {}, {true, 0, 0}}
	if !slices.Equal(f.gm.waypoints, want) {
		t.Fatalf("got %+v, want %+v", f.gm.waypoints, want)
	}
}

func TestWaypointRateLimit(t *testing.T) {
	f, p, c := spawned(t)
	q, qc := f.join()
	f.spawn(q, qc, grid.Vec{X: 1000}) // out of each other's stream distance: no PlayerShow
	for i := range 8 {
		f.waypoint(p, 1, float32(10*i), 0)
	}
	if len(f.gm.waypoints) != 5 {
		t.Fatalf("got %d events at once, want 5", len(f.gm.waypoints))
	}
	if got := p.Waypoint(); got.X != 70 {
		t.Fatalf("got held %+v, want the latest (70, 0) held past the limit", got)
	}
	f.advance(400 * time.Millisecond) // 0.8 tokens
	if len(f.gm.waypoints) != 5 {
		t.Fatal("a deferred event fired before the limit allowed it")
	}
	f.advance(100 * time.Millisecond) // 1 token: one event with the latest
	if len(f.gm.waypoints) != 6 || f.gm.waypoints[5].X != 70 {
		t.Fatalf("got %+v, want a 6th event with the latest waypoint", f.gm.waypoints)
	}
	f.advance(5 * time.Second)
	if len(f.gm.waypoints) != 6 {
		t.Fatal("more than one deferred event fired")
	}
	// Refilled at 2 per second, up to 5.
	for i := range 7 {
		f.waypoint(p, 1, float32(-10*i-10), 0)
	}
	if len(f.gm.waypoints) != 11 {
		t.Fatalf("got %d events, want 5 more after a long pause", len(f.gm.waypoints))
	}
	// Never relayed to anyone.
	if n := len(c.take()) + len(qc.take()); n != 0 {
		t.Fatalf("waypoints sent %d packets", n)
	}
}

func TestSetWaypointHeldWithoutEvent(t *testing.T) {
	f, p, c := spawned(t)
	if err := f.w.SetWaypoint(p, Waypoint{Active: true, X: 500, Y: -500}); err != nil {
		t.Fatal(err)
	}
	sw := only[*wire.SetWaypoint](c.take())
	if len(sw) != 1 || sw[0].Active != 1 || sw[0].X != 500 {
		t.Fatalf("got %+v, want a SetWaypoint at (500, -500)", sw)
	}
	if len(f.gm.waypoints) != 0 || p.Waypoint() != (Waypoint{true, 500, -500}) {
		t.Fatalf("got events %+v held %+v, want it held without an event", f.gm.waypoints, p.Waypoint())
	}
	f.waypoint(p, 1, 500.5, -500) // the client's answer
	if len(f.gm.waypoints) != 0 {
		t.Fatal("the client's answer to SetWaypoint raised an event")
	}
	if err := f.w.SetWaypoint(p, Waypoint{}); err != nil {
		t.Fatal(err)
	}
	f.waypoint(p, 0, 0, 0)
	if len(f.gm.waypoints) != 0 || p.Waypoint().Active {
		t.Fatal("the answer to a removal raised an event")
	}
	wantArgErr(t, f.w.SetWaypoint(p, Waypoint{Active: true, X: 3001}), "set_waypoint", "waypoint")
}

func TestDelayedEarlierWaypointRaisesTwoEvents(t *testing.T) {
	f, p, _ := spawned(t)
	// The client clicks A, then receives SetWaypoint B; A arrives after.
	if err := f.w.SetWaypoint(p, Waypoint{Active: true, X: 200, Y: 200}); err != nil {
		t.Fatal(err)
	}
	f.waypoint(p, 1, -100, 50) // A, sent before the client set B
	f.waypoint(p, 1, 200, 200) // the answer to SetWaypoint
	want := []Waypoint{{true, -100, 50}, {true, 200, 200}}
	if !slices.Equal(f.gm.waypoints, want) {
		t.Fatalf("got %+v, want %+v in order", f.gm.waypoints, want)
	}
}

func TestSetWaypointCancelsDeferredEvent(t *testing.T) {
	f, p, _ := spawned(t)
	for i := range 6 {
		f.waypoint(p, 1, float32(10*i), 0)
	}
	if err := f.w.SetWaypoint(p, Waypoint{Active: true, X: 1000}); err != nil {
		t.Fatal(err)
	}
	f.advance(time.Second)
	if len(f.gm.waypoints) != 5 {
		t.Fatalf("got %d events, want the deferred one cancelled by SetWaypoint", len(f.gm.waypoints))
	}
}
