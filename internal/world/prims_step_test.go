package world

import (
	"testing"

	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// TestPrimStepsEqualBruteForce: players who walk (steps of 1 cm to 150 m,
// or stand) among blips (some with a draw distance, some attached to a
// player) and more than ZoneScanMax gang zones (the grid's path), while
// blips and zones are created, deleted, moved, changed in place, given or
// relieved of a draw distance, hidden for one player; every view is due
// every round, and after each pass every blip and zone view equals a scan
// of every blip and zone. It fails unless views were patched by a step
// (grid.Diff, prims_step.go), zone views were found steady by a hold
// (zone_hold.go), blip views too where no blip is attached (blip_hold.go:
// seed 0 makes none), some told from their rings (blip_ring.go), and some
// steps were refused (the listed path).
func TestPrimStepsEqualBruteForce(t *testing.T) {
	for seed := range uint64(3) {
		f, r, near, ps, cs := startWalk(t, seed, 235, 6, 200)
		var blips, zs []uint32
		for i := range 400 {
			bp := BlipParams{Pos: near(400)}
			if i%2 == 0 { // bands everywhere, some near the cut
				bp.DrawDistance = float32(50 + r.IntN(250))
			}
			blips = append(blips, f.blip(bp))
		}
		for range ZoneScanMax + 100 {
			c := near(600)
			id := f.zone(ZoneParams{Min: [2]float32{c.X - 10, c.Y - 10}, Max: [2]float32{c.X + 10, c.Y + 10}, Color: 0xFF0000, Alpha: 96})
			if err := f.w.ShowGangZone(id, nil); err != nil {
				t.Fatal(err)
			}
			zs = append(zs, id)
		}
		pick := func(s []uint32) uint32 { return s[r.IntN(len(s))] }
		pr := &f.w.prims
		steps0, holds0, passes0, rings0 := pr.steps, pr.holds, pr.passes, pr.ringSteps
		for round := range 60 {
			if round%3 != 2 { // every third round: nothing but the walks
				for range 1 + r.IntN(3) {
					switch r.IntN(8) {
					case 0:
						blips = append(blips, f.blip(BlipParams{Pos: near(400), DrawDistance: float32(r.IntN(2) * 120)}))
					case 1:
						f.w.DeleteBlip(pick(blips))
					case 2: // moved, or in place
						if b := f.w.Blip(pick(blips)); b != nil && !b.attached() {
							bp := b.Params()
							if r.IntN(2) == 0 {
								bp.Pos = near(400)
							}
							bp.Color ^= 0xFF
							f.w.SetBlip(b.ID(), bp)
						}
					case 3: // a draw distance given or taken
						if b := f.w.Blip(pick(blips)); b != nil && !b.attached() {
							bp := b.Params()
							bp.DrawDistance = float32(r.IntN(2) * (30 + r.IntN(200)))
							f.w.SetBlip(b.ID(), bp)
						}
					case 4: // a blip on a player
						if seed == 0 {
							continue
						}
						q := ps[r.IntN(len(ps))]
						blips = append(blips, f.blip(BlipParams{AttachKind: wire.AttachPlayer, AttachID: uint32(q.id)}))
					case 5: // a zone moved, or changed in place
						z := f.w.GangZone(pick(zs))
						zp := z.Params()
						if r.IntN(2) == 0 {
							c := near(600)
							zp.Min, zp.Max = [2]float32{c.X - 10, c.Y - 10}, [2]float32{c.X + 10, c.Y + 10}
						}
						zp.Color ^= 0xFF
						f.w.SetGangZone(z.ID(), zp)
					case 6: // hidden for one player, or for everyone, or shown again
						switch id := pick(zs); r.IntN(3) {
						case 0:
							f.w.HideGangZone(id, ps[r.IntN(len(ps))])
						case 1:
							f.w.HideGangZone(id, nil)
						default:
							f.w.ShowGangZone(id, nil)
						}
					case 7:
						c := near(600)
						id := f.zone(ZoneParams{Min: [2]float32{c.X - 10, c.Y - 10}, Max: [2]float32{c.X + 10, c.Y + 10}, Color: 0xFF00, Alpha: 96})
						f.w.ShowGangZone(id, nil)
						zs = append(zs, id)
					}
				}
			}
			f.randomSteps(r, ps, cs, []float32{0, 0.01, 0.01, 0.5, 3, 5, 8, 12, 30, 70, 150})
			f.settleAll(ps, cs, tick)
			for i, q := range ps {
				t.Logf("seed %d round %d, player %d", seed, round, i)
				sameView(t, "blips", q.prims.blips, stream.Blips.Limit(),
					brute(f.w, func() []stream.Want { w, _ := f.w.blipWants(q, pr.wants[:0], nil); return w }))
				sameView(t, "zones", q.prims.zones, stream.GangZones.Limit(),
					brute(f.w, func() []stream.Want { w, _ := f.w.zoneWants(q, pr.wants[:0], nil); return w }))
			}
		}
		if seed == 0 && pr.blipHolds == 0 {
			t.Errorf("seed %d: no blip view found steady by a hold", seed)
		}
		if pr.ringSteps == rings0 {
			t.Errorf("seed %d: no blip view told from its ring (blip_ring.go): the rings go unchecked", seed)
		}
		steps, holds := pr.steps-steps0, pr.holds-holds0
		views := pr.passes[primBlips] - passes0[primBlips] + pr.passes[primZones] - passes0[primZones]
		if steps == 0 || holds == 0 || steps+holds >= views {
			t.Errorf("seed %d: %d views patched by a step, %d found steady by a hold, of %d: want some of each, and some listed",
				seed, steps, holds, views)
		}
	}
}
