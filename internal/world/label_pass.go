package world

import (
	"iter"
	"math/bits"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// The pass of a label view made only of labels on players (decision 0295).
// In a crowd (issue 7's load run: a name label on each of 1000 players)
// a viewer's labels are the labels on the players its view shows, within
// their draw distance, and nothing else: no unattached label in its scope,
// no label on a vehicle it is shown. Its slow pass then reads the labels
// from a dense table by slot (labelRef: no *Label, no map), marks the ones
// wanted in a bit set by slot, and patches the view by the difference with
// the last pass's bit set ([stream.View.Patch]: the labels that came and
// went), without Reconcile's look-up of every wanted label and its walk of
// the whole shown table. The result is the same ops in the same order,
// which a pass of labels on players then spreads over a few ticks
// (label_spread.go, decision 0330).
//
// The bit set stands for the view (labelPass.ok) after a pass whose wanted
// labels were within the limit, ops left by it or not (decision 0330); the
// next pass patches only with nothing pending. A label's change or deletion frees its slot
// and clears it in every viewer's set, marking the viewers that wanted it
// (their next pass reconciles in full, as the change reconciles them at
// once anyway); any other pass of the view (a label grid or a vehicle's
// labels in reach) clears ok. Patch itself refuses a last set that is not
// what the view shows, and the pass then reconciles the list.

// labelRef is what a label pass reads of one label attached to a player:
// dense by the label's slot.
type labelRef struct {
	off    grid.Vec // the offset from the player
	dd2    float32  // the draw distance, squared
	id     uint32
	rev    uint32
	viewer *Player // the only player shown the label; nil for everyone
}

// want returns the label as p wants it, on a player at pos, and whether p
// should see it: not another player's, within its draw distance of p.
func (l *labelRef) want(p *Player, pos grid.Vec) (stream.Want, bool) {
	if l.viewer != nil && l.viewer != p {
		return stream.Want{}, false
	}
	at := grid.Vec{X: pos.X + l.off.X, Y: pos.Y + l.off.Y, Z: pos.Z + l.off.Z}
	d2 := grid.Dist2(p.pos, at)
	return stream.Want{ID: l.id, Rev: l.rev, Dist2: d2}, d2 <= l.dd2
}

// playerLabels is the labels attached to players, by slot, and by the
// player they are on. Owned by the world goroutine.
type playerLabels struct {
	on   [][]int32  // by player id: the slots of the labels on it
	refs []labelRef // by slot; a free slot has id 0
	free []int32    // slots to give again

	slots []int32 // scratch of passLabels: the slot of each want

	patched, listed uint64 // passes by Patch, and by Reconcile (tests, benchmarks)
	noSpread        bool   // the pass sends all its ops at once, room allowing (the baseline of label_spread.go)

	hideEnc [wire.Label3DLen]byte // a hide's bytes: labelHideTemplate (set by entities.init) with the id of the last hide sent (label.go)
}

// labelPass is a viewer's part of the label pass: the labels on players
// its last pass wanted, by slot, and their count and fingerprint.
type labelPass struct {
	want, next []uint64 // bits by slot; next is scratch
	n          int
	sum        uint64 // Σ stream.Mix(id, rev) of want
	ok         bool   // want is what the viewer's label view shows
	spread     int    // how many ops a tick the view's last pass sends (label_spread.go)
}

// addSlot gives l, attached to player id, a slot.
func (w *World) addSlot(l *Label, id uint16) {
	d := &w.ents.views.labels
	var s int32
	if n := len(d.free); n > 0 {
		s, d.free = d.free[n-1], d.free[:n-1]
	} else {
		s = int32(len(d.refs))
		d.refs = append(d.refs, labelRef{})
	}
	dd := l.params.DrawDistance
	d.refs[s] = labelRef{off: l.params.Pos, dd2: dd * dd, id: l.id, rev: l.rev, viewer: l.params.Viewer}
	if int(id) >= len(d.on) {
		d.on = append(d.on, make([][]int32, int(id)+1-len(d.on))...)
	}
	d.on[id] = append(d.on[id], s)
	l.slot = s
	w.labelRefOn(id)
}

// labelRefOn keeps player id's ref's label (players_index.go) in step with
// its labels: a label pass reads the slot of a player's only label there,
// beside the player's position it reads (in the same cache line for most
// ids: a 36-byte ref may straddle two), rather than from the player's list
// (decision 0377).
func (w *World) labelRefOn(id uint16) {
	d := &w.ents.views.labels
	r := w.ref(id)
	r.label = 0
	if int(id) < len(d.on) && len(d.on[id]) == 1 {
		r.label = d.on[id][0] + 1
	}
}

// dropSlot frees the slot of l, attached to player id: a viewer whose last
// pass wanted it no longer has a bit set that stands for its view.
func (w *World) dropSlot(l *Label, id uint16) {
	d := &w.ents.views.labels
	s := l.slot
	if int(id) < len(d.on) {
		on := d.on[id]
		for i, x := range on {
			if x == s {
				on[i] = on[len(on)-1]
				d.on[id] = on[:len(on)-1]
				break
			}
		}
		w.labelRefOn(id)
	}
	d.refs[s] = labelRef{}
	d.free = append(d.free, s)
	word, bit := int(s>>6), uint64(1)<<(s&63)
	for _, p := range w.players {
		if p == nil {
			continue
		}
		if lp := &p.ent.labels; word < len(lp.want) && lp.want[word]&bit != 0 {
			lp.want[word] &^= bit
			lp.ok = false
		}
	}
}

// passLabels reconciles p's label view by the pass of labels on players
// when nothing else is in reach (see above), leaving the ops in
// w.prims.ops: every show among them is of a label on a player p's view
// shows now. It reports whether it ran; if not, p's bit set is marked
// stale and the caller runs the full pass.
func (w *World) passLabels(p *Player) bool {
	pr := &w.prims
	lp := &p.ent.labels
	if w.bruteForce || !p.hasPos || pr.labelG.Lookup(p.scope) != nil || pr.labelOwnG.Lookup(p.scope) != nil ||
		len(pr.labelsOn) > 0 && len(p.ent.shownV) > 0 {
		lp.ok = false
		return false
	}
	d := &w.ents.views.labels
	nw := (len(d.refs) + 63) / 64
	next := lp.next[:0]
	next = append(next, make([]uint64, nw)...)
	wants, slots := pr.wants[:0], d.slots[:0]
	var sum uint64
	for s, want := range w.labelsOnShownPlayers(p) {
		wants = append(wants, want)
		slots = append(slots, s)
		next[s>>6] |= 1 << (s & 63)
		sum += stream.Mix(want.ID, want.Rev)
	}
	pr.wants, d.slots = wants, slots
	v := p.prims.labels
	limit := stream.Labels.Limit()
	patched := false
	if lp.ok && v.Pending() == 0 && len(wants) <= limit {
		hide := pr.hide[:0]
		for i, word := range lp.want {
			if i < len(next) {
				word &^= next[i]
			}
			for word != 0 {
				s := i<<6 + bits.TrailingZeros64(word)
				word &= word - 1
				hide = append(hide, d.refs[s].id)
			}
		}
		show := pr.show[:0]
		for k, s := range slots {
			if int(s>>6) >= len(lp.want) || lp.want[s>>6]&(1<<(s&63)) == 0 {
				show = append(show, wants[k])
			}
		}
		pr.hide, pr.show = hide, show
		pr.ops, patched = v.Patch(lp.n, lp.sum, hide, show, w.labelRoom(p, len(hide)+len(show), true), stream.HidesFirst, pr.ops[:0])
	}
	if patched {
		d.patched++
	} else {
		d.listed++
		pr.ops = v.Reconcile(wants, 0, stream.HidesFirst, pr.ops[:0]) // the diff, then its ops spread
		pr.ops = v.Flush(w.labelRoom(p, v.Pending(), true), stream.HidesFirst, pr.ops)
	}
	lp.want, lp.next = next, lp.want
	lp.n, lp.sum = len(wants), sum
	// The bit set stands for the view once its ops are out: the next pass
	// patches only with nothing pending, and Patch refuses a view that
	// does not show the set (an op left and dropped since).
	lp.ok = len(wants) <= limit
	w.labelStepFrom(p) // no label grid in the scope: a later step starts from a full pass
	return true
}

// labelsOnShownPlayers yields, by slot, the labels attached to the players
// p's view shows (not p) that p wants, with the want: read from the dense
// tables by player id (their labels, their stream center), without a map
// lookup or the players' structs. A player with one label (a crowd's name
// labels) is one line of refs, its label's slot with its position; its
// list of labels is read only when it has several. labelsOnShown and
// passLabels walk it.
func (w *World) labelsOnShownPlayers(p *Player) iter.Seq2[int32, stream.Want] {
	return func(yield func(int32, stream.Want) bool) {
		d := &w.ents.views.labels
		refs := w.ents.views.refs
		for _, id := range p.ent.shownP {
			if id == p.id {
				continue
			}
			r := &refs[id]
			if !r.inGrid { // left: no position
				continue
			}
			if s := r.label - 1; s >= 0 { // its only label
				if want, ok := d.refs[s].want(p, r.pos); ok && !yield(s, want) {
					return
				}
				continue
			}
			if int(id) >= len(d.on) {
				continue
			}
			for _, s := range d.on[id] {
				if want, ok := d.refs[s].want(p, r.pos); ok && !yield(s, want) {
					return
				}
			}
		}
	}
}
