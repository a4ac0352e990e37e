package stream

import (
	"math/bits"
	"slices"

	"dlmp/internal/grid"
)

// Patch is Reconcile for a wanted set given as a change of the previous one,
// told without listing either (see [grid.Grid.Diff]): if the view shows
// exactly the set of n entities whose [Mix] values sum to sum (the wanted set
// before the change, at the same revs), the new wanted set is that set
// without hide and with show, and Patch returns what Reconcile would with
// the whole new set: the same ops in the same order (hides in table order,
// shows nearest first), the rest left for Flush. Otherwise it changes
// nothing and returns out and false: the caller lists the wanted set and
// calls Reconcile.
//
// hide must be ids of the old set; show holds entities not in it, or in it
// at another rev (shown again at the new one, as Reconcile would: the
// world's blip and label steps pass an extra whose rev changed). The new set
// must fit the view's limit (a grid's answer does), as Reconcile would trim
// it otherwise. The fingerprint rule is Reconcile's (decision 0051). Patch
// may reorder hide and show; it does not keep them.
func (v *View) Patch(n int, sum uint64, hide []uint32, show []Want, budget int, order Order, out []Op) ([]Op, bool) {
	if n != v.shown.n || sum != v.sum {
		return out, false
	}
	if len(hide)+len(show) <= budget {
		// Everything goes now: the caller's slices serve as the leftovers
		// for this call (sorted in place), and the view's own buffers are
		// back in place before it returns, empty, so a view whose buffers
		// were let go (release) does not allocate them again for a large
		// step. The view never keeps the caller's slices.
		ownH, ownS := v.hides, v.shows
		v.hides, v.shows = hide, show
		out = v.patch(budget, order, out)
		v.hides, v.shows = ownH[:0], ownS[:0]
		return out, true
	}
	v.hides = append(v.hides[:0], hide...)
	v.shows = append(v.shows[:0], show...)
	return v.patch(budget, order, out), true
}

// PatchStep is Patch for a [grid.Step] computed with [Mix] as its sum, when
// the wanted set is the grid's answer as it is: one Want per hit, same id
// and rev (no chains expanded, no viewer filter), as for UnchangedAnswer.
func (v *View) PatchStep(s *grid.Step, budget int, order Order, out []Op) ([]Op, bool) {
	if s.WasN != v.shown.n || s.WasSum != v.sum {
		return out, false
	}
	// Sized once: a large step's buffers were let go by the last release.
	v.hides, v.shows = slices.Grow(v.hides[:0], len(s.Leave)), slices.Grow(v.shows[:0], len(s.Enter))
	for i := range s.Leave {
		v.hides = append(v.hides, s.Leave[i].Key)
	}
	for i := range s.Enter {
		h := &s.Enter[i]
		v.shows = append(v.shows, Want{ID: h.Key, Rev: h.Rev, Dist2: h.Dist2})
	}
	return v.patch(budget, order, out), true
}

// patch orders the ops in v.hides and v.shows as Reconcile does and sends
// what the budget allows.
func (v *View) patch(budget int, order Order, out []Op) []Op {
	// One scratch for both sorts, sized once: a view lets a large one go
	// (release), and growing it by appends cost a hot-spot step ~9
	// allocations. The shows' sort takes twice their count (sortWants).
	v.order = slices.Grow(v.order[:0], max(len(v.hides), 2*len(v.shows)))
	v.shown.warm(v.hides, v.shows)
	v.order = sortWants(v.shows, v.order)[:0]
	if len(v.hides) > 1 {
		if v.hidesBySlots() {
			if order == HidesFirst {
				nw := (len(v.shown.slots) + 63) / 64
				return v.flushMarked(budget, v.order[:nw], out)
			}
		} else {
			ks := v.order[:0]
			for _, id := range v.hides {
				ks = append(ks, uint64(uint32(v.shown.find(id)))<<32|uint64(id))
			}
			slices.Sort(ks)
			for i, k := range ks {
				v.hides[i] = uint32(k)
			}
			v.order = ks[:0]
		}
	}
	return v.Flush(budget, order, out)
}

// flushMarked is Flush, hides first, for the hides hidesBySlots put in
// table order, their slots marked in marks: the hides are not looked up
// again (hideMarked).
func (v *View) flushMarked(budget int, marks []uint64, out []Op) []Op {
	budget = max(budget, 0)
	nh := min(len(v.hides), budget)
	out = v.hideMarked(nh, marks, out)
	out = v.show(min(len(v.shows), budget-nh), out)
	v.release()
	return out
}

// hideMarked is hide for the first n of the hides hidesBySlots put in table
// order, whose slots are the set bits of marks (the k-th hide in the k-th
// set bit), the table unchanged since: it takes each hide's slot from its
// mark instead of probing for it again (decision 0404). It removes them
// last slot first: a removal shifts back only entries of the run after its
// slot, so the slots of the hides before it stay where they were, unless
// the run crosses the table's end and an entry at its start moves to its
// end: such a hide, whose slot no longer holds it, is looked up.
func (v *View) hideMarked(n int, marks []uint64, out []Op) []Op {
	t := &v.shown
	for _, id := range v.hides[:n] {
		out = append(out, Op{ID: id})
	}
	k := len(v.hides) // the hides left to pass, from the last
	for w := len(marks) - 1; w >= 0 && k > 0; w-- {
		for m := marks[w]; m != 0; {
			b := 63 - bits.LeadingZeros64(m)
			m &^= 1 << b
			if k--; k >= n {
				continue
			}
			id, i := v.hides[k], w<<6|b
			if t.slots[i].key != t.keyOf(id) {
				i = t.find(id)
			}
			v.sum -= mix(id, t.slots[i].rev)
			t.remove(i)
		}
	}
	v.hides = v.hides[:copy(v.hides, v.hides[n:])]
	return out
}

// hidesBySlots puts v.hides in table order, as the sort of patch does,
// without a sort: each hide's slot is marked in a bitmap of the table (in
// v.order), whose marks are then read in order (decision 0282). It applies
// when the bitmap is small for the hides (a word per 8 hides at most) and
// every hide is shown, once; otherwise (an id not shown or given twice:
// the sort keeps those, after the shown ones or beside their twin) it
// leaves the hides as they were (only the scratch v.order is written) and
// reports false.
func (v *View) hidesBySlots() bool {
	t := &v.shown
	nw := (len(t.slots) + 63) / 64
	if nw > 8*len(v.hides) {
		return false
	}
	marks := slices.Grow(v.order[:0], nw)[:nw]
	clear(marks)
	v.order = marks[:0]
	for _, id := range v.hides {
		i := t.find(id)
		if i < 0 {
			return false
		}
		b := uint64(1) << (i & 63)
		if marks[i>>6]&b != 0 {
			return false
		}
		marks[i>>6] |= b
	}
	k := 0
	for w, m := range marks {
		for m != 0 {
			v.hides[k] = t.id(w<<6 | bits.TrailingZeros64(m))
			k++
			m &= m - 1
		}
	}
	return true
}
