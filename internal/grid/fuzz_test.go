package grid

import (
	"math"
	"slices"
	"testing"
)

// FuzzGrid drives a small grid with operations decoded from the input and
// checks every query against the oracle.
func FuzzGrid(f *testing.F) {
	f.Add([]byte{0, 10, 20, 30, 5, 0, 200, 100, 3, 1, 4, 0, 7, 0, 0, 9})
	f.Add([]byte{0, 255, 255, 0, 255, 0, 0, 0, 0, 0, 4, 255, 255, 3, 0, 0, 4, 0, 0, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		g := New(64)
		o := &oracle{ents: map[Handle]oracleEnt{}}
		var live []Handle
		next := uint32(0) // keys are unique, as the world's are
		// Caches of a few limits, queried like the grid; box sizes so that
		// the fuzzer's positions fall on box borders and split points.
		caches := map[int]*Cache{NoLimit: NewCache(g, NoLimit, 48, 20, testSum, 8)}
		for _, l := range []int{1, 3, 8, 40} {
			caches[l] = NewCache(g, l, 96, 40, testSum, 8)
		}
		// coord maps a byte to a position that is often on a cell border or
		// past the world's edge.
		coord := func(b byte) float32 { return (float32(b) - 128) * 48 }
		// Steps from the last query point to the next, told by Diff and by
		// DiffIn with a shell per limit kept across the grid's changes.
		var prev Vec
		shells := map[int]*Shell{}
		// The cut each shell's last step told at prev: the next DiffIn
		// starts from it (a held answer, decision 0265).
		held := map[int]uint64{}
		answer := func(p Vec, l int) []Hit {
			if l == NoLimit {
				return o.covering(p)
			}
			return o.nearest(p, l)
		}
		for len(data) >= 4 {
			op, a, b, c := data[0]%5, data[1], data[2], data[3]
			data = data[4:]
			p := Vec{coord(a), coord(b), float32(c) - 100}
			switch {
			case op == 0 || len(live) == 0: // insert
				r := float32(c) * 4
				if c == 255 {
					r = float32(math.Inf(1))
				}
				next++
				h := g.Insert(next, p, r)
				o.ents[h] = oracleEnt{key: g.Key(h), pos: p, r2: r * r, weight: 1 + uint32(b%3)}
				g.SetWeight(h, o.ents[h].weight)
				live = append(live, h)
			case op == 1: // move
				h := live[int(a)%len(live)]
				e := o.ents[h]
				e.pos = Vec{coord(b), coord(c), e.pos.Z}
				g.Move(h, e.pos)
				o.ents[h] = e
			case op == 3 && a < 16: // compact: cells ordered by sub-square from then on
				g.Compact()
			case op == 2: // remove
				i := int(a) % len(live)
				g.Remove(live[i])
				delete(o.ents, live[i])
				live[i] = live[len(live)-1]
				live = live[:len(live)-1]
			default: // query
				last := held
				held = map[int]uint64{}
				limit := 1 + int(c)%40
				checkHits(t, "Covering", g.Covering(p, nil), o.covering(p))
				checkHits(t, "Nearest", g.Nearest(p, limit, nil), o.nearest(p, limit))
				for _, l := range []int{NoLimit, []int{1, 3, 8, 40}[int(c)%4]} {
					want := o.covering(p)
					if l != NoLimit {
						want = o.nearest(p, l)
					}
					for range buildAfter + 1 { // the grid, then a box (or a part)
						checkHits(t, "cached", cached(t, caches[l], p), want)
					}
					// The old answer as its cut describes it: CutOf's
					// guess (AllCut for a light answer) may be wrong with
					// heavy entities, and the Step's WasN, WasSum then
					// tell the caller it does not hold that set.
					cut := CutOf(answer(prev, l), l)
					was := slices.DeleteFunc(o.covering(prev), func(h Hit) bool { return h.Rank() >= cut })
					var s Step
					if g.Diff(prev, p, l, cut, testSum, &s) {
						s.Total(testSum)
						checkDiff(t, &s, was, want)
					}
					if shells[l] == nil {
						shells[l] = new(Shell)
					}
					if hc, ok := last[l]; ok {
						cut = hc
						was = slices.DeleteFunc(o.covering(prev), func(h Hit) bool { return h.Rank() >= cut })
					}
					if g.DiffIn(shells[l], 60, prev, p, l, cut, testSum, &s) {
						checkDiff(t, &s, was, want)
						held[l] = s.Cut
					}
				}
				prev = p
			}
		}
	})
}
