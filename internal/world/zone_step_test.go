package world

import (
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
)

// TestZoneStepsCountCellsEqualBruteForce: players who walk past the zones'
// settle distance (steps of 20 to 150 m) among more than ZoneScanMax gang
// zones, some moved and changed in place between the passes; every view is
// due every round, and after each pass every zone view equals a scan of
// every zone. It fails unless zone views were patched by a step whose
// cells nearer than the band were counted from the zone cache's totals
// (decision 0342), and totals were reused (fewer counts than uses). That a
// cell's totals are counted again after a change in it is
// grid.TestCacheDiffCountsChangedCells's check.
func TestZoneStepsCountCellsEqualBruteForce(t *testing.T) {
	f, r, near, ps, cs := startWalk(t, 5, 342, 6, 200)
	var zs []uint32
	for range ZoneScanMax + 300 {
		c := zoneAtNear(near)
		id := f.zone(ZoneParams{Min: [2]float32{c.X - 10, c.Y - 10}, Max: [2]float32{c.X + 10, c.Y + 10}, Color: 0xFF0000, Alpha: 96})
		if err := f.w.ShowGangZone(id, nil); err != nil {
			t.Fatal(err)
		}
		zs = append(zs, id)
	}
	pr := &f.w.prims
	steps0 := pr.steps
	for round := range 40 {
		if round%2 == 1 {
			for range 5 {
				z := f.w.GangZone(zs[r.IntN(len(zs))])
				zp := z.Params()
				if r.IntN(2) == 0 {
					c := zoneAtNear(near)
					zp.Min, zp.Max = [2]float32{c.X - 10, c.Y - 10}, [2]float32{c.X + 10, c.Y + 10}
				}
				zp.Color ^= 0xFF
				if err := f.w.SetGangZone(z.ID(), zp); err != nil {
					t.Fatal(err)
				}
			}
		}
		f.randomSteps(r, ps, cs, []float32{20, 40, 70, 150})
		f.settleAll(ps, cs, tick)
		for _, q := range ps {
			sameView(t, "zones", q.prims.zones, stream.GangZones.Limit(),
				brute(f.w, func() []stream.Want { w, _ := f.w.zoneWants(q, pr.wants[:0], nil); return w }))
		}
	}
	var counted, recounted uint64
	for _, gc := range f.w.caches.kinds[cacheZones].m {
		counted += gc.c.Stats().Counted
		recounted += gc.c.Stats().Recounted
	}
	steps := pr.steps - steps0
	if steps == 0 || counted == 0 || recounted == 0 || recounted >= counted {
		t.Errorf("%d zone views patched by a step, %d cells counted from totals, %d counted again: want some of each, fewer counted again",
			steps, counted, recounted)
	}
	t.Logf("%d steps, %d cells counted from totals, %d counted again", steps, counted, recounted)
}

// zoneAtNear is a zone's center near the origin (near's normal spread of
// 1500 m), within the world bounds.
func zoneAtNear(near func(float32) grid.Vec) grid.Vec {
	c := near(1500)
	c.X, c.Y = max(min(c.X, 5900), -5900), max(min(c.Y, 5900), -5900)
	return c
}
