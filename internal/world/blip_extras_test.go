package world

import (
	"math"
	"slices"
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
)

// TestShownExtrasOfFarBlips: a step's extras among the far blips are those
// shown to the player that its answer does not hold: not attached, and
// gone, in another scope, not covering the answer's point or ranked past
// its cut, each at its shown rev. A blip not shown is never one, whatever
// its entry says.
func TestShownExtrasOfFarBlips(t *testing.T) {
	sc := grid.Scope{}
	st := &primStep{at: at(0, 0)}
	// The cut: the rank of a blip 100 m out with slot 50.
	st.cut = uint64(math.Float32bits(100*100))<<32 | 50
	tests := []struct {
		name  string
		f     farBlip
		shown bool
		extra bool
	}{
		{"in the answer", farBlip{id: 1, slot: 1, at: at(50, 0), dd: 200, scope: sc}, true, false},
		{"at the cut's distance, ranked before it", farBlip{id: 2, slot: 49, at: at(100, 0), dd: 200, scope: sc}, true, false},
		{"at the cut's distance, ranked at it", farBlip{id: 3, slot: 50, at: at(100, 0), dd: 200, scope: sc}, true, true},
		{"past the cut", farBlip{id: 4, slot: 2, at: at(150, 0), dd: 200, scope: sc}, true, true},
		{"not covering the point", farBlip{id: 5, slot: 3, at: at(60, 0), dd: 50, scope: sc}, true, true},
		{"in another scope", farBlip{id: 6, slot: 4, at: at(50, 0), dd: 200, scope: grid.Scope{World: 3}}, true, true},
		{"attached since", farBlip{id: 7, slot: 5, at: at(500, 0), dd: 200, scope: sc, state: farAttached}, true, false},
		{"deleted since", farBlip{id: 8, slot: 6, at: at(50, 0), dd: 200, scope: sc, state: farGone}, true, true},
		{"past the cut, not shown", farBlip{id: 9, slot: 7, at: at(150, 0), dd: 200, scope: sc}, false, false},
		{"in another scope, not shown", farBlip{id: 10, slot: 8, at: at(50, 0), dd: 200, scope: grid.Scope{World: 3}}, false, false},
	}
	p := &Player{scope: sc}
	p.prims.init()
	var shown []stream.Want
	for i, tc := range tests {
		p.prims.farBlips = append(p.prims.farBlips, tc.f)
		if tc.shown {
			shown = append(shown, stream.Want{ID: tc.f.id, Rev: uint32(10 + i)})
		}
	}
	p.prims.blips.Reconcile(shown, stream.Unlimited, stream.HidesFirst, nil)
	got := shownExtras(p, st, nil)
	for i, tc := range tests {
		j := slices.IndexFunc(got, func(w stream.Want) bool { return w.ID == tc.f.id })
		if (j >= 0) != tc.extra {
			t.Errorf("%s: an extra %v, want %v", tc.name, j >= 0, tc.extra)
			continue
		}
		if j >= 0 && got[j].Rev != uint32(10+i) {
			t.Errorf("%s: extra at rev %d, want the shown rev %d", tc.name, got[j].Rev, 10+i)
		}
	}
}
