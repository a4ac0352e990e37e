package bot

import (
	"testing"
	"time"

	"dlmp/client/mirror"
	"dlmp/internal/wire"
)

// TestGoal: a racing bot runs to the nearest checkpoint even with a pickup
// nearer; a bot that does not race, or sees no checkpoint, runs to the
// nearest pickup; with neither behaviour, or nothing shown, it has no goal.
func TestGoal(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	m := mirror.New(&wire.ServerHello{PlayerID: 1, MaxPlayers: 10, SyncHz: 20}, now)
	b := &bot{x: 0, y: 0}
	b.behaviours = []string{Race, Pickups}
	if _, ok := b.goal(m); ok {
		t.Error("got a goal with nothing shown")
	}
	for _, p := range []wire.Packet{
		&wire.PickupSync{PickupID: 1, Active: 1, Model: 1240, X: 5, Y: 0, Z: 1, Scale: 1, Rev: 1},
		&wire.PickupSync{PickupID: 2, Active: 1, Model: 1240, X: 2, Y: 0, Z: 1, Scale: 1, Rev: 1},
	} {
		if err := p.CheckRecv(); err != nil {
			t.Fatal(err)
		}
		m.Apply(p, now)
	}
	if g, ok := b.goal(m); !ok || g != [3]float32{2, 0, 1} {
		t.Errorf("goal with pickups only = %v, %v; want the nearest pickup at (2, 0, 1)", g, ok)
	}
	for _, p := range []wire.Packet{
		&wire.Checkpoint{CheckpointID: 1, Active: 1, X: 30, Y: 0, Z: 2, Radius: 4},
		&wire.Checkpoint{CheckpointID: 2, Active: 1, X: 0, Y: 20, Z: 3, Radius: 4},
	} {
		if err := p.CheckRecv(); err != nil {
			t.Fatal(err)
		}
		m.Apply(p, now)
	}
	for _, tt := range []struct {
		behaviours []string
		want       [3]float32
		ok         bool
	}{
		{[]string{Race, Pickups}, [3]float32{0, 20, 3}, true},
		{[]string{Race}, [3]float32{0, 20, 3}, true},
		{[]string{Pickups}, [3]float32{2, 0, 1}, true},
		{[]string{Wander, Chat}, [3]float32{}, false},
	} {
		b.behaviours = tt.behaviours
		if g, ok := b.goal(m); ok != tt.ok || g != tt.want {
			t.Errorf("goal with %v = %v, %v; want %v, %v", tt.behaviours, g, ok, tt.want, tt.ok)
		}
	}
}
