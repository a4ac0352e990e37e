package grid

import (
	"math"
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

// TestCellBounds: after random inserts, moves (within and across cells),
// radius changes, removals and compactions, every cell's bounds hold its
// entities and, once the grid compacted, its entities lie in the runs of
// their sub-squares (the held step's skips rely on both); every slot says
// where its entity is.
func TestCellBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 7))
	g := New(16)
	var live []Handle
	check := func(when string) {
		t.Helper()
		n := 0
		for ci := range g.side * g.side {
			c := g.peek(ci%g.side, ci/g.side)
			if c == nil {
				continue
			}
			for i, e := range c.p {
				n++
				if e.r2 > c.maxR2 || e.r2 < c.minR2 || e.z < c.zlo || e.z > c.zhi {
					t.Fatalf("%s: entity (z %g, r² %g) outside its cell's bounds z [%g, %g], r² [%g, %g]", when, e.z, e.r2, c.zlo, c.zhi, c.minR2, c.maxR2)
				}
				if s := g.slots[c.m[i].h]; s.cell != int32(ci) || s.idx != int32(i) {
					t.Fatalf("%s: entity at cell %d index %d has slot %+v", when, ci, i, s)
				}
				if g.subs != nil {
					if got, want := g.subOfIndex(ci, int32(i)), g.subOf(ci%g.side, ci/g.side, e.x, e.y); got != want {
						t.Fatalf("%s: entity (%g, %g) at cell %d index %d in the run of square %d, want %d", when, e.x, e.y, ci, i, got, want)
					}
				}
			}
			if e := g.ends(ci); e != nil && e[subN-1] != int32(len(c.p)) {
				t.Fatalf("%s: cell %d of %d entities: runs end at %d", when, ci, len(c.p), e[subN-1])
			}
		}
		if n != g.Len() {
			t.Fatalf("%s: %d entities in cells, want %d", when, n, g.Len())
		}
	}
	for round := range 2000 {
		pos := Vec{rng.Float32()*100 - 50, rng.Float32()*100 - 50, rng.Float32()*40 - 20}
		switch op := rng.IntN(5); {
		case op == 0 || len(live) == 0:
			live = append(live, g.Insert(uint32(round), pos, rng.Float32()*100))
		case op == 1:
			h := live[rng.IntN(len(live))]
			p := g.Position(h)
			g.Move(h, Vec{p.X + rng.Float32() - 0.5, p.Y + rng.Float32() - 0.5, pos.Z}) // mostly within its cell
		case op == 2:
			g.Move(live[rng.IntN(len(live))], pos)
		case op == 3:
			g.SetRadius(live[rng.IntN(len(live))], rng.Float32()*100)
		default:
			i := rng.IntN(len(live))
			g.Remove(live[i])
			live = slices.Delete(live, i, i+1)
		}
		if round%400 == 399 {
			check("before Compact")
			g.Compact()
			check("after Compact")
		}
	}
	check("at the end")
	if g.subs == nil {
		t.Fatalf("never ordered: Compact did not order the cells")
	}
}

// subOfIndex returns the sub-square whose run holds index i of the cell
// with linear index ci, or -1 when the grid is not ordered.
func (g *Grid) subOfIndex(ci int, i int32) int {
	e := g.ends(ci)
	if e == nil {
		return -1
	}
	q := 0
	for i >= e[q] {
		q++
	}
	return q
}

// TestHeldBand checks the narrow band's center and half-width: around the
// old cut's distance moved by narrowLead of the last move, narrowPad wide
// plus narrowSlope of that move on either side; an unknown move (+Inf)
// gives an infinite center, which scanDiff does not narrow by.
func TestHeldBand(t *testing.T) {
	for _, tc := range []struct {
		name            string
		shift           float32
		wantOff, wantHf float64
	}{
		{"still", 0, 0, 3},
		{"out 8 m", 8, 6, 5},
		{"in 4 m", -4, -3, 4},
	} {
		h := held{shift: tc.shift}
		off, half := h.band()
		if math.Abs(off-tc.wantOff) > 1e-9 || math.Abs(half-tc.wantHf) > 1e-9 {
			t.Errorf("%s: band() = %v, %v, want %v, %v", tc.name, off, half, tc.wantOff, tc.wantHf)
		}
	}
	h := held{shift: float32(math.Inf(1))}
	if off, _ := h.band(); !math.IsInf(off, 1) {
		t.Errorf("unknown move: center %v, want +Inf", off)
	}
}
