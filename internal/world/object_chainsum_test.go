package world

import (
	"math/rand/v2"
	"testing"

	"dlmp/internal/stream"
)

// TestChainSumKept: after random attaches, detaches, pose changes, breaks
// and deletes, every root in the object grid carries the rev and flag of
// gridRev, and chainSum read from its grid rev equals the fingerprint of
// its chain walked object by object. Without bumpRev's update of the
// root's members sum (or syncRoot after a change of shape) it fails.
func TestChainSumKept(t *testing.T) {
	f := newFixture(t, nil)
	w := f.w
	rng := rand.New(rand.NewPCG(7, 11))
	var ids []uint32
	for i := range 40 {
		ids = append(ids, f.object(ObjectParams{Pos: at(float32(i%8)*3, float32(i/8)*3)}))
	}
	pick := func() *Object {
		for {
			if o := w.Object(ids[rng.IntN(len(ids))]); o != nil {
				return o
			}
		}
	}
	for step := range 600 {
		o := pick()
		switch rng.IntN(6) {
		case 0, 1:
			p := pick()
			_ = w.AttachObject(o.id, AttachParams{Kind: KindObject, ID: p.id, Offset: at(1, 0)}) // refusals (loops, bones) are fine
		case 2:
			_ = w.DetachObject(o.id)
		case 3:
			pos, rot := w.currentPose(o)
			pos.Z += 0.5
			_ = w.SetObjectPose(o.id, pos, rot) // an attached object's offset may be refused
		case 4:
			_ = w.SetObjectBroken(o.id, !o.broken) // most models cannot break: refused
		case 5:
			if rng.IntN(4) == 0 {
				if err := w.DeleteObject(o.id); err != nil {
					t.Fatal(err)
				}
				ids = append(ids, f.object(ObjectParams{Pos: at(rng.Float32()*20, rng.Float32()*20)}))
			}
		}
		for id := uint32(1); id <= w.ents.nextObject; id++ {
			r := w.Object(id)
			if r == nil || !r.inGrid {
				continue
			}
			rev := gridRevAt(t, w, r)
			if want := gridRev(r); rev != want {
				t.Fatalf("step %d: root %d: grid rev %#x, want %#x", step, r.id, rev, want)
			}
			if rev&chainFlag == 0 != (r.chain == 0) {
				t.Fatalf("step %d: root %d with %d below: grid rev %#x", step, r.id, r.chain, rev)
			}
			want := stream.Mix(r.id, r.rev) + membersSum(r)
			if got := w.chainSum(r.id, rev); got != want {
				t.Fatalf("step %d: root %d (%d below): chainSum %#x, want %#x", step, r.id, r.chain, got, want)
			}
		}
	}
}

// gridRevAt returns the rev r's grid entry carries, from a query at its place.
func gridRevAt(t *testing.T, w *World, r *Object) uint32 {
	t.Helper()
	g := w.rootGrid(r)
	for _, h := range g.Covering(g.Position(r.h), nil) {
		if h.Key == r.id {
			return h.Rev
		}
	}
	t.Fatalf("root %d not found at its own place", r.id)
	return 0
}
