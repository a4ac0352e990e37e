package world

import (
	"testing"

	"dlmp/internal/grid"
)

// TestInPlaceChangeMarksOnlyWhoShowsIt: a blip or gang zone changed where
// it stands (decision 0197) is reconciled on the next tick only by the
// players who show it, not by every player in its scope.
func TestInPlaceChangeMarksOnlyWhoShowsIt(t *testing.T) {
	f := newFixture(t, nil)
	near, cn := f.join()
	far, cf := f.join()
	f.spawnIn(near, cn, grid.Vec{}, grid.Scope{})
	f.spawnIn(far, cf, grid.Vec{X: 2000}, grid.Scope{})
	// A blip with no draw distance concerns everyone in its scope; the far
	// player has 100 nearer ones, so it is not among its 100 nearest.
	blip := f.blip(BlipParams{Sprite: 1})
	for i := range 100 {
		f.blip(BlipParams{Sprite: 1, Pos: grid.Vec{X: float32(2000 + i)}})
	}
	zone := f.zone(ZoneParams{Color: 1}) // created hidden
	if err := f.w.ShowGangZone(zone, nil); err != nil {
		t.Fatal(err)
	}
	if err := f.w.HideGangZone(zone, far); err != nil {
		t.Fatal(err)
	}
	f.slowPass()
	if _, ok := near.prims.blips.Shown(blip); !ok {
		t.Fatal("the near player does not show the blip")
	}
	if _, ok := far.prims.blips.Shown(blip); ok {
		t.Fatal("the far player shows the blip behind 100 nearer ones")
	}
	if _, ok := near.prims.zones.Shown(zone); !ok {
		t.Fatal("the near player does not show the zone")
	}
	if _, ok := far.prims.zones.Shown(zone); ok {
		t.Fatal("the far player shows the zone hidden from it")
	}

	if err := f.w.SetBlip(blip, BlipParams{Sprite: 2}); err != nil {
		t.Fatal(err)
	}
	if err := f.w.SetGangZone(zone, ZoneParams{Color: 2, Max: [2]float32{100, 100}}); err != nil {
		t.Fatal(err)
	}
	if !near.prims.blipsDirty || !near.prims.zonesDirty {
		t.Errorf("the player who shows them: blips dirty %v, zones dirty %v, want both", near.prims.blipsDirty, near.prims.zonesDirty)
	}
	if far.prims.blipsDirty || far.prims.zonesDirty {
		t.Errorf("the player who shows neither: blips dirty %v, zones dirty %v, want neither", far.prims.blipsDirty, far.prims.zonesDirty)
	}
}
