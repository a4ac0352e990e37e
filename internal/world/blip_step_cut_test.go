package world

import (
	"math"
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// A marker step whose answer is cut at the old point and not at the new
// one: 150 blips with a draw distance of 60 m stand within 20 m of a player
// (the answer is cut at 100), three markers 600 m away are trimmed; the
// player walks 70 m out of most of the blips' reach, the answer holds
// every blip covering the new point and the markers are wanted again. The
// view must equal a scan's. It fails when a step keeps only the attached
// blips near the old cut (attachedBlipWants' far2) for a new answer that
// is not cut.
func TestBlipStepFromCutToWhole(t *testing.T) {
	f, r, _ := seeded(t, 1, 272)
	p, c := f.join()
	f.spawnAcked(p, c, at(0, 0))
	for i := range 3 {
		q, qc := f.join()
		f.spawnAcked(q, qc, at(600, float32(10*i)))
		f.blip(BlipParams{AttachKind: wire.AttachPlayer, AttachID: uint32(q.id)})
	}
	for range 150 {
		a, d := r.Float64()*2*math.Pi, 20*math.Sqrt(r.Float64())
		f.blip(BlipParams{Pos: at(float32(d*math.Cos(a)), float32(d*math.Sin(a))), DrawDistance: 60})
	}
	check := func(what string) {
		t.Helper()
		sameView(t, what, p.prims.blips, stream.Blips.Limit(),
			brute(f.w, func() []stream.Want { w, _ := f.w.blipWants(p, f.w.prims.wants[:0], nil); return w }))
	}
	for range 25 { // a slow pass at the cluster
		f.advance(tick)
		c.ackAll()
	}
	check("at the cluster")
	if p.prims.blips.Len() != stream.Blips.Limit() {
		t.Fatalf("at the cluster: %d blips shown, want %d (the answer cut)", p.prims.blips.Len(), stream.Blips.Limit())
	}
	if st := p.prims.blipStep; st.g == nil || st.cut == grid.AllCut {
		t.Fatalf("at the cluster: no cut answer kept for a step (%+v): the test does not reach the case", st)
	}
	f.advance(500 * time.Millisecond)
	f.sync(p, c, at(70, 0), 1)
	for range 25 { // the next slow pass, 70 m on: checked right after it
		passes := f.w.prims.passes[primBlips]
		f.advance(tick)
		c.ackAll()
		if f.w.prims.passes[primBlips] != passes {
			check("70 m on")
		}
	}
}
