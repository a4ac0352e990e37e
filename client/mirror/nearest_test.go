package mirror

import (
	"math/rand/v2"
	"testing"

	"dlmp/internal/wire"
)

// TestNearest: NearestCheckpoint and NearestPickup pick what a search over
// Checkpoints and Pickups (by id) picks: the nearest on the ground plane,
// the lowest id of equals (the coordinates are small integers, so ties
// are frequent); none when none is held; and they allocate nothing.
func TestNearest(t *testing.T) {
	m := newMirror(t, frozenHello())
	if _, ok := m.NearestCheckpoint(0, 0); ok {
		t.Error("NearestCheckpoint found one in an empty mirror")
	}
	if _, ok := m.NearestPickup(0, 0); ok {
		t.Error("NearestPickup found one in an empty mirror")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	coord := func() float32 { return float32(rng.IntN(7) - 3) }
	for id := uint32(1); id <= 40; id++ {
		apply(t, m, &wire.Checkpoint{CheckpointID: id, Active: 1, X: coord(), Y: coord(), Z: float32(id), Radius: 4, Color: 0xFF0000}, t0)
		apply(t, m, showPickup(id, coord(), coord(), float32(id), 1), t0)
	}
	for range 200 {
		x, y := float64(rng.IntN(9)-4), float64(rng.IntN(9)-4)
		var want Checkpoint
		bd := -1.0
		for _, c := range m.Checkpoints() {
			if d := (c.Pos.X-x)*(c.Pos.X-x) + (c.Pos.Y-y)*(c.Pos.Y-y); bd < 0 || d < bd {
				want, bd = c, d
			}
		}
		if got, ok := m.NearestCheckpoint(x, y); !ok || got != want {
			t.Fatalf("NearestCheckpoint(%v, %v) = %+v, %v; want %+v", x, y, got, ok, want)
		}
		var wantP Pickup
		bd = -1
		for _, p := range m.Pickups() {
			pos := p.Pos()
			if d := (pos.X-x)*(pos.X-x) + (pos.Y-y)*(pos.Y-y); bd < 0 || d < bd {
				wantP, bd = p, d
			}
		}
		if got, ok := m.NearestPickup(x, y); !ok || got != wantP {
			t.Fatalf("NearestPickup(%v, %v) = %+v, %v; want %+v", x, y, got, ok, wantP)
		}
	}
	if allocs := testing.AllocsPerRun(50, func() {
		m.NearestCheckpoint(1, 1)
		m.NearestPickup(1, 1)
	}); allocs > 0 {
		t.Errorf("got %.0f allocations per pair of lookups, want 0", allocs)
	}
}
