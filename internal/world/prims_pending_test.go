package world

import (
	"testing"

	"dlmp/internal/grid"
)

// Ops a reconcile left for lack of room are sent on the next tick, not on
// the next slow pass, though the views are polled only after a reconcile
// ran (tickPrims, budget): blips left by the tick's own reconcile and
// checkpoints left by a gamemode's call between ticks.
func TestPendingPrimsSentOnTheNextTick(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, grid.Vec{})
	f.advance(tick) // p's first slow pass; the next is a second away
	f.advance(tick)
	m := newMirror()
	m.apply(t, c)
	if p.prims.recheck {
		t.Fatalf("recheck set after a tick that ran no reconcile")
	}
	c.free = SendReserve + 2
	var blips []uint32
	for i := range 6 {
		blips = append(blips, f.blip(BlipParams{Pos: grid.Vec{X: float32(i)}}))
	}
	f.advance(tick) // the blips' reconcile: room for 2
	m.apply(t, c)
	if got := len(m.blips); got != 2 {
		t.Fatalf("got %d blips shown, want 2 (the room)", got)
	}
	c.free = SendReserve + 1
	var cps []uint32
	for i := range 3 {
		cps = append(cps, f.checkpoint(p, CheckpointParams{Pos: grid.Vec{Y: float32(10 * i)}}))
	}
	c.free = 4096
	f.advance(tick) // not p's slow pass: the ops left
	m.apply(t, c)
	wantIDs(t, "blips after the next tick", ids(m.blips), blips...)
	wantIDs(t, "checkpoints after the next tick", ids(m.cps), cps...)
	f.advance(tick)
	if p.prims.recheck {
		t.Errorf("recheck still set after a tick found no ops left")
	}
}
