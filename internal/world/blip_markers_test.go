package world

import (
	"testing"

	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// TestBlipStepsWithMarkersEqualBruteForce: every player carries an attached
// blip (SA-MP's player markers) among unattached blips, some with a draw
// distance; players walk (1 cm to 150 m, or stand, some across the others'
// markers), each pass a slow pass (the markers follow their players), blips
// are created, moved and deleted, and a marker is dropped and put back
// (seed 2: fewer blips than the limit, near the middle: nothing is trimmed
// and markers are past them). After each pass every blip view equals a
// scan of every blip. It fails unless blip views were patched by a step
// with a marker shown or wanted (blip_step.go), and some steps were
// refused. Checked against: no new show for a marker that followed, a
// split at the new cut not checked against the limit's k, pastTrim without
// its limit check or cutting nearer than the farthest hit.
func TestBlipStepsWithMarkersEqualBruteForce(t *testing.T) {
	for seed := range uint64(3) {
		f, r, near, ps, cs := startWalk(t, seed, 250, 12, 150)
		markers := make([]uint32, len(ps))
		for i, p := range ps {
			markers[i] = f.blip(BlipParams{Color: 0xFF00FF, AttachKind: wire.AttachPlayer, AttachID: uint32(p.id)})
		}
		var blips []uint32
		for i := range []int{250, 250, 60}[seed] { // seed 2: fewer than the limit, nothing trimmed
			bp := BlipParams{Pos: near([]float32{400, 400, 40}[seed])}
			if i%3 == 0 {
				bp.DrawDistance = float32(50 + r.IntN(250))
			}
			blips = append(blips, f.blip(bp))
		}
		pr := &f.w.prims
		steps0, marks0, passes0 := pr.steps, pr.markSteps, pr.passes[primBlips]
		for round := range 60 {
			switch r.IntN(6) {
			case 0:
				blips = append(blips, f.blip(BlipParams{Pos: near(400), DrawDistance: float32(r.IntN(2) * 120)}))
			case 1:
				f.w.DeleteBlip(blips[r.IntN(len(blips))])
			case 2: // a marker dropped and put back
				i := r.IntN(len(ps))
				f.w.DeleteBlip(markers[i])
				markers[i] = f.blip(BlipParams{Color: 0xFF, AttachKind: wire.AttachPlayer, AttachID: uint32(ps[i].id)})
			}
			f.randomSteps(r, ps, cs, []float32{0, 0.01, 0.5, 3, 6, 8, 12, 30, 70, 150})
			f.settleAll(ps, cs, tick)
			for i, q := range ps {
				t.Logf("seed %d round %d, player %d", seed, round, i)
				sameView(t, "blips", q.prims.blips, stream.Blips.Limit(),
					brute(f.w, func() []stream.Want { w, _ := f.w.blipWants(q, pr.wants[:0], nil); return w }))
			}
		}
		steps, marks, passes := pr.steps-steps0, pr.markSteps-marks0, pr.passes[primBlips]-passes0
		if marks == 0 || steps >= passes {
			t.Errorf("seed %d: %d blip views patched by a step (%d with a marker) of %d: want some with a marker, and some listed",
				seed, steps, marks, passes)
		}
	}
}
