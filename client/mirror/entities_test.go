package mirror

import (
	"testing"

	"dlmp/internal/wire"
)

func TestPlayerMoves(t *testing.T) {
	const other = 3
	m := newMirror(t, frozenHello())

	// A move for a player not shown is dropped.
	movePlayer(t, m, other, 1, Vec3{1, 0, 0}, 0, at(0))
	if _, ok := m.Player(other); ok {
		t.Fatal("a PlayerMove created a player that was never shown")
	}
	show := &wire.PlayerShow{PlayerID: other, Active: 1, Skin: 2, Color: 0x00FF00}
	copy(show.PlayerName[:], "Carl_J")
	apply(t, m, show, at(1))
	if p, _ := m.Player(other); p.HasPos || p.Name != "Carl_J" || p.Skin != 2 {
		t.Errorf("after the show: %+v, want Carl_J, skin 2, no position yet", p)
	}

	steps := []struct {
		seq  uint32
		x    float32
		want float64 // x held afterwards
	}{
		{5, 10, 10},
		{5, 20, 10}, // not newer: dropped
		{4, 30, 10}, // older: dropped
		{6, 40, 40},
		{100, 50, 50},
	}
	for _, s := range steps {
		movePlayer(t, m, other, s.seq, Vec3{float64(s.x), 0, 0}, 0, at(2))
		if p, _ := m.Player(other); p.Pos.X != s.want || !p.HasPos {
			t.Errorf("after seq %d: x = %v (has position %v), want %v", s.seq, p.Pos.X, p.HasPos, s.want)
		}
	}

	// The seq survives a hide: a move delayed from before it is stale.
	apply(t, m, &wire.PlayerShow{PlayerID: other}, at(3))
	apply(t, m, show, at(4))
	movePlayer(t, m, other, 99, Vec3{60, 0, 0}, 0, at(5))
	if p, _ := m.Player(other); p.HasPos {
		t.Errorf("a move older than the hide placed the player at %+v", p.Pos)
	}
	want := Stats{StaleMoves: 3, UnshownMoves: 1}
	if got := m.Stats(); got != want {
		t.Errorf("Stats() = %+v, want %+v", got, want)
	}
}

func TestVehicleMoves(t *testing.T) {
	m := newMirror(t, frozenHello())
	mv := func(seq uint32, x float32) {
		t.Helper()
		apply(t, m, &wire.VehicleMove{Seq: seq, VehicleID: 12, X: x, QW: 1, Health: 900}, at(1))
	}
	mv(1, 5) // not shown
	apply(t, m, &wire.VehicleShow{VehicleID: 12, Active: 1, Model: 411, Color1: 3, X: 1, QZ: 1, Health: 1000}, at(0))
	mv(7, 10)
	mv(7, 20)
	v, ok := m.Vehicle(12)
	if !ok || v.Pos.X != 10 || v.Health != 900 || v.Quat != [4]float64{0, 0, 0, 1} || v.Color1 != 3 {
		t.Errorf("Vehicle(12) = %+v, %v: want the seq-7 move at x 10", v, ok)
	}
	if got := m.Stats(); got.StaleMoves != 1 || got.UnshownMoves != 1 {
		t.Errorf("Stats() = %+v, want one stale and one unshown move", got)
	}
	apply(t, m, &wire.VehicleShow{VehicleID: 12}, at(2))
	if got := m.Vehicles(); len(got) != 0 {
		t.Errorf("Vehicles() after the hide = %+v, want none", got)
	}
}
