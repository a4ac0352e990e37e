package world

import (
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

func (f *fixture) touch(p *Player, id uint32) {
	f.w.Packet(p, &wire.PickupTouch{Token: 1, PickupID: id}, f.now)
}

// streamed sets up a spawned player at the origin with pickup pp streamed
// to them.
func streamed(t *testing.T, pp PickupParams) (*fixture, *Player, *testConn, uint32) {
	t.Helper()
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, grid.Vec{})
	id := f.pickup(pp)
	f.advance(tick)
	c.take()
	if !p.PickupShown(id) {
		t.Fatal("setup: pickup not streamed")
	}
	return f, p, c, id
}

func TestTouchRefusals(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(f *fixture, p *Player, c *testConn, id uint32) uint32 // returns the id touched
		reason TouchRefusal
	}{
		{"not spawned", func(f *fixture, _ *Player, _ *testConn, id uint32) uint32 {
			q, _ := f.join()
			f.touch(q, id)
			return 0
		}, TouchNotAlive},
		{"dead", func(f *fixture, p *Player, c *testConn, id uint32) uint32 {
			f.sync(p, c, grid.Vec{}, 4)
			return id
		}, TouchNotAlive},
		{"no such pickup", func(*fixture, *Player, *testConn, uint32) uint32 { return 999 }, TouchNoPickup},
		{"collected, waiting for its respawn", func(f *fixture, _ *Player, _ *testConn, id uint32) uint32 {
			if err := f.w.CollectPickup(id); err != nil {
				f.t.Fatal(err)
			}
			return id
		}, TouchNoPickup},
		{"never shown to this player (other scope)", func(f *fixture, _ *Player, _ *testConn, _ uint32) uint32 {
			return f.pickup(PickupParams{Pos: grid.Vec{X: 1}, Scope: grid.Scope{World: 5}})
		}, TouchNotShown},
		{"created but not yet streamed", func(f *fixture, _ *Player, _ *testConn, _ uint32) uint32 {
			id := f.pickup(PickupParams{Pos: grid.Vec{X: 1}})
			f.w.Player(0).pickups.Drop(id) // as if the create's reconcile had no room
			return id
		}, TouchNotShown},
		{"too far", func(f *fixture, p *Player, c *testConn, id uint32) uint32 {
			f.now = f.now.Add(tick)
			f.sync(p, c, grid.Vec{X: 1 + TouchRadius + 0.1}, 1)
			return id
		}, TouchTooFar},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, p, c, id := streamed(t, PickupParams{Pos: grid.Vec{X: 1}, Respawn: time.Minute})
			touched := tt.setup(f, p, c, id)
			if touched != 0 {
				f.touch(p, touched)
			}
			if len(f.gm.touches) != 0 {
				t.Fatalf("got %d interactions, want the touch refused", len(f.gm.touches))
			}
			if n := f.w.Stats().TouchRefused[tt.reason]; n != 1 {
				t.Fatalf("got %d refusals of reason %d, want 1 (stats %+v)", n, tt.reason, f.w.Stats().TouchRefused)
			}
		})
	}
}

func TestTouchOfPickupRemovedFromViewIsRefusedWhenDelayed(t *testing.T) {
	f, p, c, id := streamed(t, PickupParams{Pos: grid.Vec{X: 1}})
	// The player is teleported into an interior at the same coordinates:
	// the pickup is removed from their view. A touch the client sent before
	// it applied the teleport arrives afterwards.
	if err := f.w.Teleport(p, Landing{Pos: grid.Vec{X: 1}, Interior: 2}); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	if _, hides := pickupOps(t, c.take()); len(hides) != 1 || p.PickupShown(id) {
		t.Fatal("setup: the pickup was not removed from the view")
	}
	f.touch(p, id)
	if len(f.gm.touches) != 0 || f.w.Stats().TouchRefused[TouchNotShown] != 1 {
		t.Fatalf("a touch of a pickup removed from the view was accepted: %+v", f.gm.touches)
	}
	// Back in its scope and shown again, the same touch is accepted.
	if err := f.w.Teleport(p, Landing{Pos: grid.Vec{X: 1}}); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	f.touch(p, id)
	if len(f.gm.touches) != 1 {
		t.Fatalf("got %d interactions once shown again, want 1", len(f.gm.touches))
	}
}

func TestCollectibleRefusedAtFullHealthThenCollected(t *testing.T) {
	f, p, c, id := streamed(t, PickupParams{Model: 1240, Pos: grid.Vec{X: 1}, Respawn: 30 * time.Second})
	// The gamemode: a health pickup refuses a player at full health.
	f.gm.onInteract = func(e PickupInteraction) {
		if e.Player.Health() >= 100 {
			return
		}
		if err := f.w.CollectPickup(e.Pickup); err != nil {
			t.Fatal(err)
		}
		if err := f.w.GiveHealth(e.Player, 100); err != nil {
			t.Fatal(err)
		}
	}
	f.touch(p, id)
	f.touch(p, id) // the client keeps re-touching: the interaction fires again
	if len(f.gm.touches) != 2 || f.gm.touches[0].Behavior != Collectible || f.gm.touches[0].Model != 1240 {
		t.Fatalf("got %+v, want two collectible interactions with model 1240", f.gm.touches)
	}
	if out := c.take(); len(out) != 0 || !f.w.Pickup(id).Active() {
		t.Fatalf("a refused interaction consumed or granted: %+v", out)
	}
	// The player takes damage; the next touch collects.
	f.now = f.now.Add(tick)
	f.syncWith(p, c, grid.Vec{X: 0.5}, func(s *wire.PlayerSync) { s.Health = 40 })
	f.touch(p, id)
	out := c.take()
	_, hides := pickupOps(t, out)
	gh := only[*wire.GiveHealth](out)
	if len(hides) != 1 || len(gh) != 1 || gh[0].Amount != 100 {
		t.Fatalf("got %+v, want the pickup removed and a GiveHealth", out)
	}
	// A retransmission after the removal finds nothing and does nothing.
	f.touch(p, id)
	if len(f.gm.touches) != 3 || len(c.take()) != 0 {
		t.Fatalf("a retransmitted touch did something: %d interactions", len(f.gm.touches))
	}
}

func TestStaticOncePerEntry(t *testing.T) {
	f, p, c, id := streamed(t, PickupParams{Model: 1239, Pos: grid.Vec{X: 1}, Behavior: Static})
	f.touch(p, id)
	f.touch(p, id)
	if len(f.gm.touches) != 1 || f.gm.touches[0].Behavior != Static {
		t.Fatalf("got %+v, want one static interaction", f.gm.touches)
	}
	if !f.w.Pickup(id).Active() || len(c.take()) != 0 {
		t.Fatal("a static interaction removed the pickup")
	}
	// Another player has their own latch.
	q, qc := f.join()
	f.spawn(q, qc, grid.Vec{X: 2})
	f.advance(tick)
	f.touch(q, id)
	if len(f.gm.touches) != 2 {
		t.Fatalf("got %d interactions, want the second player's", len(f.gm.touches))
	}
	// Still inside the radius: the latch holds.
	f.now = f.now.Add(tick)
	f.sync(p, c, grid.Vec{X: 1 + TouchRadius - 0.5}, 1)
	f.touch(p, id)
	if len(f.gm.touches) != 2 {
		t.Fatal("the latch cleared while the player stayed inside the radius")
	}
	// Out of the radius, then back: a new entry.
	f.now = f.now.Add(tick)
	f.sync(p, c, grid.Vec{X: 1 + TouchRadius + 1}, 1)
	f.now = f.now.Add(tick)
	f.sync(p, c, grid.Vec{X: 1}, 1)
	f.touch(p, id)
	if len(f.gm.touches) != 3 {
		t.Fatalf("got %d interactions, want a new one after leaving and entering", len(f.gm.touches))
	}
	if n := f.w.Stats().TouchRefused[TouchLatched]; n != 2 {
		t.Fatalf("got %d latched refusals, want 2", n)
	}
}

func TestTouchRadiusScalesWithPickup(t *testing.T) {
	f, p, c, id := streamed(t, PickupParams{Pos: grid.Vec{X: 10}, Scale: 4})
	f.now = f.now.Add(tick)
	f.sync(p, c, grid.Vec{X: 10 - 4*TouchRadius + 0.5}, 1)
	f.touch(p, id)
	if len(f.gm.touches) != 1 {
		t.Fatal("a touch within a scale-4 pickup's radius was refused")
	}
}
