package world

import (
	"testing"
	"time"

	"dlmp/internal/wire"
)

// vehicleMovesOf returns the VehicleMoves among a viewer's unreliable
// packets, by vehicle id (failing on two of one vehicle in a tick).
func vehicleMovesOf(t *testing.T, c *entConn) map[uint16]*wire.VehicleMove {
	t.Helper()
	got := map[uint16]*wire.VehicleMove{}
	for _, m := range c.takeMoves() {
		if x, ok := m.(*wire.VehicleMove); ok {
			if got[x.VehicleID] != nil {
				t.Errorf("vehicle %d: two VehicleMoves in one tick", x.VehicleID)
			}
			got[x.VehicleID] = x
		}
	}
	return got
}

// TestVehicleMovesFromMovedOnly drives two vehicles among parked ones over
// ticks with and without moves, one driven twice in a tick and one deleted
// after its move: a viewer gets each moved vehicle's latest pose once on
// the tick it moved, nothing on a tick without a move, and nothing of a
// deleted vehicle. Ticks without a move read no vehicle (fails when
// sendVehicleMoves reads the shown vehicles regardless), and an encode
// reads only the moved vehicles and last tick's.
func TestVehicleMovesFromMovedOnly(t *testing.T) {
	f := newFixture(t, nil)
	a, ac := f.joinE()
	d1, d1c := f.joinE()
	d2, d2c := f.joinE()
	f.spawn(a, ac.testConn, at(0, 0))
	f.spawn(d1, d1c.testConn, at(20, 0))
	f.spawn(d2, d2c.testConn, at(-20, 0))
	v1 := f.vehicle(VehicleParams{Pos: at(21, 0)})
	v2 := f.vehicle(VehicleParams{Pos: at(-21, 0)})
	for i := range 20 {
		f.vehicle(VehicleParams{Pos: at(float32(i*5), 30)}) // parked, shown to a
	}
	f.advance(tick)
	f.advance(tick)
	if n := len(a.ent.shownV); n != 22 {
		t.Fatalf("got %d vehicles shown to a, want 22", n)
	}
	vehicleMovesOf(t, ac)
	reads := f.w.prims.vtick.reads
	for range 3 {
		f.advance(tick)
	}
	if got := vehicleMovesOf(t, ac); len(got) != 0 {
		t.Fatalf("got %d VehicleMoves without a driver, want none", len(got))
	}
	if got := f.w.prims.vtick.reads - reads; got != 0 {
		t.Fatalf("got %d vehicles read in three ticks without a move, want 0", got)
	}

	type round struct {
		v1, v2 []float32 // the x of each driver's syncs this tick
		want   map[uint16]float32
	}
	rounds := []round{
		{v1: []float32{22}, want: map[uint16]float32{v1: 22}},
		{v1: []float32{23}, v2: []float32{-22}, want: map[uint16]float32{v1: 23, v2: -22}},
		{want: map[uint16]float32{}},
		{v2: []float32{-23, -23.5}, want: map[uint16]float32{v2: -23.5}},
		{want: map[uint16]float32{}},
	}
	for i, r := range rounds {
		f.now = f.now.Add(tick)
		for _, x := range r.v1 {
			f.drive(d1, d1c.testConn, v1, at(x, 0), 1000)
		}
		for _, x := range r.v2 {
			f.drive(d2, d2c.testConn, v2, at(x, 0), 1000)
		}
		reads := f.w.prims.vtick.reads
		f.w.Tick(f.now)
		got := vehicleMovesOf(t, ac)
		if len(got) != len(r.want) {
			t.Fatalf("round %d: got VehicleMoves of %d vehicles, want %d", i, len(got), len(r.want))
		}
		for id, x := range r.want {
			if m := got[id]; m == nil || m.X != x {
				t.Fatalf("round %d: vehicle %d: got move %+v, want one at x %v", i, id, m, x)
			}
		}
		if len(r.want) == 0 && f.w.prims.vtick.reads-reads > 2 {
			t.Fatalf("round %d: got %d vehicles read on a tick without a move, want at most last tick's", i, f.w.prims.vtick.reads-reads)
		}
	}

	// Moved, then deleted before the tick: no move, no panic.
	f.now = f.now.Add(tick)
	f.drive(d1, d1c.testConn, v1, at(24, 0), 1000)
	if err := f.w.DeleteVehicle(v1); err != nil {
		t.Fatal(err)
	}
	f.w.Tick(f.now)
	if got := vehicleMovesOf(t, ac); len(got) != 0 {
		t.Fatalf("got VehicleMoves %v of a deleted vehicle, want none", got)
	}
	if n := len(f.w.prims.vtick.moved); n != 0 {
		t.Fatalf("got %d vehicles left listed as moved after the tick, want 0", n)
	}
	if n := len(f.w.prims.vtick.encoded); n != 0 {
		t.Fatalf("got %d moves encoded for the tick, want 0 (the only moved vehicle was deleted)", n)
	}
}

// TestVehicleRespawnScanOnlyWithDelays: the respawn scan reads no vehicle
// while none has a respawn delay (fails when it scans regardless), scans
// once one has, and stops again once that one is deleted.
func TestVehicleRespawnScanOnlyWithDelays(t *testing.T) {
	f := newFixture(t, nil)
	for i := range 10 {
		f.vehicle(VehicleParams{Pos: at(float32(i*5), 0)})
	}
	readsOver := func(ticks int) uint64 {
		t.Helper()
		before := f.w.prims.vtick.reads
		for range ticks {
			f.advance(tick)
		}
		return f.w.prims.vtick.reads - before
	}
	if got := readsOver(3); got != 0 {
		t.Fatalf("got %d vehicles read in three ticks, none with a delay, want 0", got)
	}
	id := f.vehicle(VehicleParams{Pos: at(0, 50), Respawn: time.Second})
	if got := readsOver(3); got == 0 {
		t.Fatal("got no vehicle read in three ticks with a respawn delay, want a scan each")
	}
	if err := f.w.DeleteVehicle(id); err != nil {
		t.Fatal(err)
	}
	if got := readsOver(3); got != 0 {
		t.Fatalf("got %d vehicles read in three ticks after the delayed one left, want 0", got)
	}
}
