package grid

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestHeldGuard: a step from the answer a shell holds is told from it
// (Step.Held) only while no cell within the old cut's reach changed. A
// change of an entity the held step would not read (nearer than the band,
// in both answers) makes the next step scan again and count it; a change
// beyond the reach keeps the held answer. Every step is checked against
// the oracle.
func TestHeldGuard(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	g := New(32)
	o := &oracle{ents: map[Handle]oracleEnt{}}
	for key := range uint32(3000) {
		pos := Vec{rng.Float32()*600 - 300, rng.Float32()*600 - 300, rng.Float32()*4 - 2}
		h := g.Insert(key, pos, 1000)
		o.ents[h] = oracleEnt{key, 0, pos, 1000 * 1000, 1}
	}
	const limit = 200
	var (
		sh   Shell
		s    Step
		from = Vec{-40, 0, 0}
		cut  = CutOf(o.nearest(from, limit), limit)
	)
	// walk steps 5 m east and reports whether the step was told from the
	// held answer, after checking it against the oracle.
	walk := func(what string) bool {
		t.Helper()
		to := Vec{from.X + 5, from.Y, from.Z}
		was := slices.DeleteFunc(o.covering(from), func(h Hit) bool { return h.Rank() >= cut })
		if !g.DiffIn(&sh, 25, from, to, limit, cut, testSum, &s) {
			t.Fatalf("%s: step %v → %v refused, want told", what, from, to)
		}
		checkDiff(t, &s, was, o.nearest(to, limit))
		from, cut = to, s.Cut
		return s.Held
	}
	// change bumps the rev of the entity nearest p.
	change := func(p Vec) {
		var best Handle
		d := inf
		for h, e := range o.ents {
			if dd := Dist2(e.pos, p); dd < d {
				best, d = h, dd
			}
		}
		e := o.ents[best]
		e.rev++
		o.ents[best] = e
		g.SetRev(best, e.rev)
	}
	if walk("first step") {
		t.Fatalf("first step: held, want a scan (nothing held yet)")
	}
	if !walk("second step") {
		t.Fatalf("second step: got a scan, want held")
	}
	change(Vec{X: 250, Y: 250}) // far beyond the cut (~56 m)
	if !walk("after a change out of reach") {
		t.Fatalf("after a change out of reach: got a scan, want held")
	}
	change(from) // in both answers: a held step would not read it
	if walk("after a change within reach") {
		t.Fatalf("after a change within reach: held, want a scan")
	}
	if !walk("after the scan") {
		t.Fatalf("after the scan: got a scan, want held again")
	}
	// A step from another point or cut than the held answer's scans.
	cut--
	if walk("another cut") {
		t.Fatalf("another cut: held, want a scan")
	}
}
