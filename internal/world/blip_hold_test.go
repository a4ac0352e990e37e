package world

import (
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
)

// TestBlipHoldStopsAtEdgesAndSwaps: a blip view found steady by a hold
// (blip_hold.go) only while nothing can have changed. A player stands
// (the hold is computed), shifts 1 cm (the hold is used), then moves 40 cm:
// across a blip's draw distance 30 cm away (edge), or across the bisector
// of the last blip in the nearest 100 and the first one out, 50 cm apart
// (swap). After every pass the view equals a scan of every blip. Holds
// that ignore the blips near their edges, or the gap at the cut (3× too
// wide), fail it.
func TestBlipHoldStopsAtEdgesAndSwaps(t *testing.T) {
	for _, tc := range []struct {
		name  string
		blips []BlipParams
	}{
		{"edge", []BlipParams{{Pos: at(50.3, 0), DrawDistance: 50}}},
		{"swap", []BlipParams{{Pos: at(-150, 0)}, {Pos: at(150.5, 0)}, {Pos: at(0, 300)}, {Pos: at(0, -300)}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, nil)
			p, c := f.join()
			f.spawnAcked(p, c, at(0, 0))
			for i := range 99 {
				f.blip(BlipParams{Pos: at(float32(-10-i), 5)})
			}
			for _, bp := range tc.blips {
				f.blip(bp)
			}
			pr := &f.w.prims
			pass := func(pos grid.Vec, when string) {
				t.Helper()
				if got, _ := p.Position(); got != pos {
					f.sync(p, c, pos, 1)
				}
				invalidateAll([]*Player{p})
				f.advance(tick)
				c.take()
				c.ackAll()
				sameView(t, when, p.prims.blips, stream.Blips.Limit(),
					brute(f.w, func() []stream.Want { w, _ := f.w.blipWants(p, pr.wants[:0], nil); return w }))
			}
			pass(at(0, 0), "the first pass")
			made := pr.holdsMade
			pass(at(0, 0), "standing")
			if pr.holdsMade == made {
				t.Fatal("standing: no hold computed")
			}
			held := pr.blipHolds
			pass(at(0.01, 0), "shifted 1 cm")
			if pr.blipHolds == held {
				t.Fatal("shifted 1 cm: the hold was not used")
			}
			pass(at(0.4, 0), "moved 40 cm")
		})
	}
}
