package world

import (
	"slices"
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// A player's attShown and farBlips follow what is shown to them as blips
// are attached, let go, given a draw distance and deleted: a step reads its
// shown extras from them (a stale list costs a refused step each pass).
func TestShownBlipListsFollowChanges(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, at(0, 0))
	q, qc := f.join()
	f.spawn(q, qc, at(50, 0))
	id := f.blip(BlipParams{Pos: at(20, 0), DrawDistance: 200})
	f.advance(tick)
	attShown := func() bool { return slices.ContainsFunc(p.prims.attShown, func(b *Blip) bool { return b.id == id }) }
	far := func() bool { return slices.ContainsFunc(p.prims.farBlips, func(e farBlip) bool { return e.id == id }) }
	if attShown() || !far() {
		t.Fatalf("unattached blip with a distance: in attShown %v, in farBlips %v; want false, true", attShown(), far())
	}
	bp := f.w.Blip(id).Params()
	bp.AttachKind, bp.AttachID = wire.AttachPlayer, uint32(q.id)
	if err := f.w.SetBlip(id, bp); err != nil {
		t.Fatal(err)
	}
	if !attShown() {
		t.Errorf("a shown blip attached: not in attShown")
	}
	if e := p.prims.farBlips[slices.IndexFunc(p.prims.farBlips, func(e farBlip) bool { return e.id == id })]; e.state != farAttached {
		t.Errorf("a shown blip attached: farBlips entry state %d, want farAttached", e.state)
	}
	f.advance(tick)
	bp.AttachKind, bp.AttachID, bp.Pos = wire.AttachNone, 0, grid.Vec{X: 30, Z: 10}
	if err := f.w.SetBlip(id, bp); err != nil {
		t.Fatal(err)
	}
	if attShown() {
		t.Errorf("a shown blip let go: still in attShown")
	}
	if e := p.prims.farBlips[slices.IndexFunc(p.prims.farBlips, func(e farBlip) bool { return e.id == id })]; e.state != farLive || e.at != bp.Pos {
		t.Errorf("a shown blip let go and moved: farBlips entry %+v, want live at %v", e, bp.Pos)
	}
	if err := f.w.DeleteBlip(id); err != nil {
		t.Fatal(err)
	}
	if e := p.prims.farBlips[slices.IndexFunc(p.prims.farBlips, func(e farBlip) bool { return e.id == id })]; e.state != farGone {
		t.Errorf("a shown blip deleted: farBlips entry state %d, want farGone", e.state)
	}
	f.advance(tick)
	if attShown() || far() {
		t.Errorf("a deleted blip after its hide: in attShown %v, in farBlips %v; want neither", attShown(), far())
	}
}
