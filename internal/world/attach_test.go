package world

import (
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// TestPrimitivesOnVehicles: a label and a blip attached to a vehicle are
// shown while the vehicle is streamed to the recipient, the blip follows
// the vehicle, and deleting the vehicle deletes both.
func TestPrimitivesOnVehicles(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, grid.Vec{X: 0, Y: 0, Z: 3})
	vid, err := f.w.CreateVehicle(VehicleParams{Model: 411, Pos: grid.Vec{X: 20, Y: 0, Z: 3}})
	if err != nil {
		t.Fatal(err)
	}
	lid, err := f.w.CreateLabel(LabelParams{Text: "taxi", Color: 0xFFFF00, Pos: grid.Vec{Z: 2}, DrawDistance: 50,
		AttachKind: wire.AttachVehicle, AttachID: uint32(vid)})
	if err != nil {
		t.Fatal(err)
	}
	bid, err := f.w.CreateBlip(BlipParams{Color: 0xFFFF00, AttachKind: wire.AttachVehicle, AttachID: uint32(vid)})
	if err != nil {
		t.Fatal(err)
	}
	f.slowPass()
	m := newMirror()
	m.apply(t, c)
	wantIDs(t, "the label on a streamed vehicle", ids(m.labels), lid)
	wantIDs(t, "the blip on the vehicle", ids(m.blips), bid)
	if b := m.blips[bid]; b.X != 20 || b.AttachKind != wire.AttachVehicle {
		t.Fatalf("blip %+v, want at the vehicle (x 20), attached to it", b)
	}
	// The vehicle moves 100 m: the blip follows it.
	if err := f.w.SetVehiclePose(vid, grid.Vec{X: 120, Y: 0, Z: 3}, Quat{}, grid.Scope{}); err != nil {
		t.Fatal(err)
	}
	f.slowPass()
	m.apply(t, c)
	if b := m.blips[bid]; b.X != 120 {
		t.Fatalf("blip at x %v after the vehicle moved to 120", b.X)
	}
	// Out of the player's stream distance: the label is hidden (its entity
	// is no longer streamed), the blip stays (no draw distance).
	if err := f.w.SetVehiclePose(vid, grid.Vec{X: 1000, Y: 0, Z: 3}, Quat{}, grid.Scope{}); err != nil {
		t.Fatal(err)
	}
	f.slowPass()
	m.apply(t, c)
	wantIDs(t, "the label of a vehicle no longer streamed", ids(m.labels))
	wantIDs(t, "the blip of a far vehicle", ids(m.blips), bid)
	// Deleting the vehicle deletes both.
	if err := f.w.DeleteVehicle(vid); err != nil {
		t.Fatal(err)
	}
	f.slowPass()
	m.apply(t, c)
	wantIDs(t, "blips after the vehicle's deletion", ids(m.blips))
	if f.w.Label(lid) != nil || f.w.Blip(bid) != nil {
		t.Fatal("the label or the blip outlived its vehicle")
	}
}
