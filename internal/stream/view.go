// Package stream holds what one player is shown of one kind of primitive (a
// [View]: the ids shown and the rev each was shown at) and the reconcile that
// turns a wanted set into hides and shows.
//
// The world goroutine computes the wanted set of a player (scope, distance,
// viewer, usually with [grid.Grid.Nearest]) and hands it to
// [View.Reconcile], which
//
//   - trims it to the kind's nearest-N limit, counting an object chain as a
//     whole or not at all (see [Want]);
//   - hides what is shown but no longer wanted (out of range, out of scope,
//     evicted by nearer ones, deleted);
//   - shows what is wanted and not shown, or shown at another rev, nearest
//     first;
//   - stops at the send budget: what is left waits in the view, and the
//     caller sends it with [View.Flush] on a later pass, or runs Reconcile
//     again, which replaces it ([View.Pending] says how much is left).
//
// [Anchor] tells when a moving viewer's wanted set needs computing again.
// [View.Patch] (and [View.PatchStep], for a [grid.Grid.Diff]) takes the
// wanted set as a change of the shown one instead of a list, when the view
// shows exactly the set the change starts from.
//
// A View assumes every op it returns is queued to the client. It is not safe
// for concurrent use: the world goroutine owns it.
package stream

import (
	"math"
	"slices"

	"dlmp/internal/grid"
)

// Unlimited is a budget or limit with no bound.
const Unlimited = math.MaxInt

// Want is one entity of a wanted set.
//
// Object chains: the world puts only a chain's root (an object attached to
// nothing) in the grid, with weight 1 + its attached objects, and expands
// each root it selects into the whole chain: the root with Chain = the number
// of objects attached below it, then every attached object with Depth ≥ 1,
// Root = the root's id and the root's Dist2. Objects on a player or vehicle
// form chains rooted at their first object, which the world adds, at the
// parent's distance, while the parent is streamed to the viewer. Attached
// objects weigh nothing against the limit; a root weighs 1 + Chain, so a
// chain is kept whole or dropped whole by Reconcile's trim, and it sorts as
// one block (parents before children) in the show order.
type Want struct {
	ID    uint32
	Rev   uint32  // the entity's revision; a different rev than shown is sent again
	Dist2 float32 // squared distance from the viewer (of the chain's root when Depth > 0)
	Root  uint32  // the chain's root id when Depth > 0; unused otherwise
	Depth uint16  // 0 for a lone entity or a chain root; ≥ 1 below a root
	Chain uint16  // for a root: the number of objects attached below it
}

func (w *Want) weight() int {
	if w.Depth > 0 {
		return 0
	}
	return 1 + int(w.Chain)
}

// compare orders wants nearest first: distance, chain (by root id), depth
// in the chain, id.
func compare(a, b Want) int {
	ra, rb := a.ID, b.ID
	if a.Depth > 0 {
		ra = a.Root
	}
	if b.Depth > 0 {
		rb = b.Root
	}
	switch {
	case a.Dist2 != b.Dist2:
		return sign(a.Dist2 < b.Dist2)
	case ra != rb:
		return sign(ra < rb)
	case a.Depth != b.Depth:
		return sign(a.Depth < b.Depth)
	case a.ID != b.ID:
		return sign(a.ID < b.ID)
	}
	return 0
}

func sign(less bool) int {
	if less {
		return -1
	}
	return 1
}

// Op is one packet to queue: a show (active = 1, at Rev) or a hide (active = 0).
type Op struct {
	ID   uint32
	Rev  uint32 // the rev shown; 0 for a hide
	Show bool
}

// Order says whether hides or shows go first within a pass.
type Order uint8

const (
	// HidesFirst frees the client's slots before filling them: the default,
	// so the client never holds more than the limit.
	HidesFirst Order = iota
	// ShowsFirst is for a landing (objects before TeleportPlayer): the
	// nearest shows take the budget, hides follow if room is left, so the
	// client may hold more than the limit until the hides are sent.
	ShowsFirst
)

// View is what one player is shown of one kind. The zero value is not
// usable: call [New].
type View struct {
	limit int
	shown table
	sum   uint64 // fingerprint of the shown set: Σ mix(id, rev)

	// Ops the last Reconcile left for lack of budget, sent by Flush.
	hides []uint32 // in table order
	shows []Want   // nearest first

	// order is scratch: Patch's hides keyed by their slot, sortWants' keys,
	// and the bitmaps of Reconcile's kept slots and of hidesBySlots' marks
	// (which flushMarked reads after it).
	order []uint64
}

// keep is the largest leftover capacity a view keeps once flushed; a bigger
// one (a new connection's full set) goes back to the garbage collector.
const keep = 128

// keepOrder is the largest sort scratch a view keeps (8 KB): a step's
// (an object view's ~130 hides and shows a uniform step, up to ~500 in a
// hot spot; twice the shows for the radix sort's scratch, decision 0383)
// is sized once, not again at every step (decision 0305).
const keepOrder = 1024

// New returns an empty view with the kind's nearest-N limit (see [Kind.Limit];
// [Unlimited] for none).
func New(limit int) *View { return &View{limit: limit} }

// Len returns the number of entities shown.
func (v *View) Len() int { return v.shown.n }

// Shown reports whether id is shown and at which rev.
func (v *View) Shown(id uint32) (rev uint32, ok bool) {
	i := v.shown.find(id)
	if i < 0 {
		return 0, false
	}
	return v.shown.slots[i].rev, true
}

// Pending returns how many hides and shows the last Reconcile left for lack
// of budget: when it is not zero, the caller sends them with Flush on its
// next pass (or runs Reconcile again, which replaces them).
func (v *View) Pending() int { return len(v.hides) + len(v.shows) }

// Reset forgets everything shown, for a new connection: the next Reconcile
// shows the whole wanted set again. The table keeps its memory.
func (v *View) Reset() {
	v.shown.clear()
	v.sum = 0
	v.hides, v.shows = v.hides[:0], v.shows[:0]
	v.release()
}

// Drop forgets id without a hide, for an entity the client removes by itself
// (an attached object deleted with its parent's chain).
func (v *View) Drop(id uint32) {
	if i := v.shown.find(id); i >= 0 {
		v.sum -= mix(id, v.shown.slots[i].rev)
		v.shown.remove(i)
	}
}

// Reconcile diffs wanted against what is shown, appends to out at most
// budget ops (hides before shows unless order says otherwise, shows nearest
// first), records them as sent and returns out; the rest is left for Flush.
// It reorders wanted, which is the caller's scratch. IDs in wanted must be
// unique.
func (v *View) Reconcile(wanted []Want, budget int, order Order, out []Op) []Op {
	wanted = v.trim(wanted)
	v.hides, v.shows = v.hides[:0], v.shows[:0]
	if len(wanted) == v.shown.n && fingerprint(wanted) == v.sum {
		v.release() // the same set at the same revs: nothing to send
		return out
	}
	// Mark the slots of what stays (a bit a slot, in v.order); move what
	// must be (re)sent to the front of wanted.
	t := &v.shown
	nw := (len(t.slots) + 63) / 64
	marks := slices.Grow(v.order[:0], nw)[:nw]
	clear(marks)
	shows, kept := 0, 0
	for i := range wanted {
		wt := &wanted[i]
		if j := t.find(wt.ID); j >= 0 {
			marks[j>>6] |= 1 << (j & 63)
			kept++
			if t.slots[j].rev == wt.Rev {
				continue
			}
		}
		wanted[shows], wanted[i] = wanted[i], wanted[shows]
		shows++
	}
	if kept < t.n {
		for i := range t.slots {
			if t.slots[i].key != 0 && marks[i>>6]&(1<<(i&63)) == 0 {
				v.hides = append(v.hides, t.id(i))
			}
		}
	}
	sh := wanted[:shows]
	v.order = sortWants(sh, marks[:0])[:0]
	v.shows = append(v.shows, sh...)
	return v.Flush(budget, order, out)
}

// Unchanged reports whether a wanted set of n entities, weighing weight
// against the limit, whose [Mix] values sum to sum, is exactly the shown
// set: then it does what Reconcile would (drops any leftover ops, sends
// nothing) and returns true. Otherwise it does nothing and returns false,
// and the caller builds the wanted set and calls Reconcile.
//
// It lets a caller that knows its wanted set's fingerprint without listing
// it (a [grid.Box]'s sure part has it precomputed) skip building the list in
// the steady state. The same fingerprint rule as Reconcile's applies (see
// docs/decisions/0051-view-reconcile.md).
func (v *View) Unchanged(n int, weight uint64, sum uint64) bool {
	if v.limit != Unlimited && weight > uint64(v.limit) {
		return false // Reconcile would trim it
	}
	if n != v.shown.n || sum != v.sum {
		return false
	}
	v.hides, v.shows = v.hides[:0], v.shows[:0]
	v.release()
	return true
}

// UnchangedAnswer is Unchanged for the answer of a [grid.Cache] built with
// [Mix] as its sum, when the wanted set is that answer as it is: one Want
// per hit, same id and rev (no chains expanded, no viewer filter).
func (v *View) UnchangedAnswer(box *grid.Box, hits []grid.Hit) bool {
	weight, sum := box.Weight(), box.Sum()
	for i := range hits {
		weight += uint64(hits[i].Weight)
		sum += mix(hits[i].Key, hits[i].Rev)
	}
	return v.Unchanged(box.Len()+len(hits), weight, sum)
}

// Flush appends to out at most budget of the ops the last Reconcile left
// (hides before shows unless order says otherwise, shows nearest first),
// records them as sent and returns out. The world calls it on passes where
// the wanted set need not be computed again.
func (v *View) Flush(budget int, order Order, out []Op) []Op {
	budget = max(budget, 0)
	if order == ShowsFirst {
		ns := min(len(v.shows), budget)
		out = v.show(ns, out)
		out = v.hide(min(len(v.hides), budget-ns), out)
	} else {
		nh := min(len(v.hides), budget)
		out = v.hide(nh, out)
		out = v.show(min(len(v.shows), budget-nh), out)
	}
	v.release()
	return out
}

// show sends the first n leftover shows.
func (v *View) show(n int, out []Op) []Op {
	for _, w := range v.shows[:n] {
		if j, ok := v.shown.place(w.ID); ok {
			v.sum -= mix(w.ID, v.shown.slots[j].rev)
			v.shown.slots[j].rev = w.Rev
		} else {
			v.shown.insertAt(j, w.ID, w.Rev)
		}
		v.sum += mix(w.ID, w.Rev)
		out = append(out, Op{ID: w.ID, Rev: w.Rev, Show: true})
	}
	v.shows = v.shows[:copy(v.shows, v.shows[n:])]
	return out
}

// hide sends the first n leftover hides (skipping ids dropped meanwhile).
func (v *View) hide(n int, out []Op) []Op {
	for _, id := range v.hides[:n] {
		if i := v.shown.find(id); i >= 0 {
			v.sum -= mix(id, v.shown.slots[i].rev)
			v.shown.remove(i)
			out = append(out, Op{ID: id})
		}
	}
	v.hides = v.hides[:copy(v.hides, v.hides[n:])]
	return out
}

// release lets go of large empty leftover buffers.
func (v *View) release() {
	if len(v.shows) == 0 && cap(v.shows) > keep {
		v.shows = nil
	}
	if len(v.hides) == 0 && cap(v.hides) > keep {
		v.hides = nil
	}
	if cap(v.order) > keepOrder {
		v.order = nil
	}
}

// trim cuts wanted to the limit: the longest prefix in show order whose
// weight fits. The usual wanted set already fits (the grid's Nearest applied
// the same rule) and costs one pass.
func (v *View) trim(wanted []Want) []Want {
	if v.limit == Unlimited || len(wanted) <= v.limit && !hasChains(wanted) {
		return wanted
	}
	total := 0
	for i := range wanted {
		total += wanted[i].weight()
	}
	if total <= v.limit {
		return wanted
	}
	slices.SortFunc(wanted, compare)
	total = 0
	for i := range wanted {
		if total += wanted[i].weight(); total > v.limit {
			return wanted[:i]
		}
	}
	return wanted
}

func hasChains(ws []Want) bool {
	for i := range ws {
		if ws[i].Chain > 0 {
			return true
		}
	}
	return false
}

// fingerprint is the order-free hash of a set of (id, rev): the sum of their
// mixes. Two different sets collide with probability about 2^-64 (ids and
// revs are the server's, never a peer's), so an equal fingerprint and count
// lets Reconcile skip the diff of an unchanged set.
func fingerprint(ws []Want) uint64 {
	var s uint64
	for i := range ws {
		s += mix(ws[i].ID, ws[i].Rev)
	}
	return s
}

// Mix is the fingerprint of one (id, rev) of a wanted set: a wanted set's
// fingerprint is the sum of its entities' mixes (see [View.Unchanged]).
func Mix(id, rev uint32) uint64 { return mix(id, rev) }

// mix is splitmix64's finalizer over id and rev: a bijection of 64 bits.
func mix(id, rev uint32) uint64 {
	x := uint64(id)<<32 | uint64(rev)
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
