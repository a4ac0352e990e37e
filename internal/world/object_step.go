package world

import (
	"math"
	"slices"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
)

// The object view's step (docs/decisions/0231-world-views-by-step.md): a
// view whose wanted set is the object grid's answer as it is (no chains of
// the player's own, no root with a per-player rule covering the point) is
// told how that answer changed since the point of its last one
// (grid.DiffIn, with a shell while the answer is uncut) and patched
// (stream.View.Patch), roots that enter or leave expanded into their
// chains. The step's old answer is fingerprinted by chainSum, the view's
// own fingerprint of a chain, and counted by weight (1 + the objects
// below a root), the view's count of objects: Patch refuses the step
// unless the view shows exactly that answer, and the pass lists as before.

// objectsPlain reports whether q's wanted objects at at in sc are the
// object grid's answer as it is: q has no chain of its own to show and no
// root with a rule covering the point is wanted by q.
func (w *World) objectsPlain(q *Player, sc grid.Scope, at grid.Vec) bool {
	for _, r := range q.ent.attached {
		if r.viewer == nil || r.viewer == q {
			return false
		}
	}
	g := w.ruledRoots.Lookup(sc)
	if g == nil {
		return true
	}
	hits := g.Covering(at, w.ents.hits[:0])
	w.ents.hits = hits
	for _, h := range hits {
		if r := w.ents.objects.at(h.Key); !(r.kind == KindPlayer && r.parentID == uint32(q.id)) && w.rootWanted(r, q) {
			return false
		}
	}
	return true
}

// objectStep tells q's object view's change from its last answer to the
// point at in sc and sends the ops, or reports false (nothing done) when
// the step cannot be told or the view does not show the old answer.
func (w *World) objectStep(q *Player, sc grid.Scope, at grid.Vec) bool {
	e := &q.ent
	g := w.ents.objectGrid.Lookup(sc)
	st := q.spots[cacheObjects].stepOf()
	if g == nil || !st.from(sc, g, at) || e.objects.Pending() > 0 {
		return false
	}
	c := &w.caches
	s := &c.step
	limit := stream.Objects.Limit()
	if !g.DiffIn(&st.shell, objectSkin, st.at, at, limit, st.cut, c.chainSum, s) {
		c.refused[cacheObjects]++
		return false
	}
	hides, shows := c.hides[:0], c.shows[:0]
	weight, sum := s.Weight, s.Sum // the new answer's (chainSum's)
	for i := range s.Leave {
		h := &s.Leave[i]
		hides = append(hides, h.Key)
		if h.Weight > 1 {
			hides = membersIDs(w.ents.objects.at(h.Key), hides)
		}
	}
	for i := range s.Enter {
		shows = w.rootWants(&s.Enter[i], shows)
	}
	c.hides, c.shows = hides, shows
	ops, ok := e.objects.Patch(int(s.WasWeight), s.WasSum, hides, shows, q.conn.Free()-SendReserve, stream.HidesFirst, w.ents.ops[:0])
	w.ents.ops = ops
	if !ok {
		c.refused[cacheObjects]++
		return false
	}
	c.stepped[cacheObjects]++
	if s.Shell {
		c.shelled[cacheObjects]++
	}
	if s.Held {
		c.held[cacheObjects]++
	}
	if s.Widened {
		c.widened[cacheObjects]++
	}
	st.set(sc, g, at, s.Cut)
	e.objectAt.Mark(at)
	if e.hold != nil {
		e.hold.any = weight > 0
	}
	// The cut (decision 0196): an answer nothing cut may end anywhere
	// within the roots' stream distances (the widest cut); a cut one
	// ends before the first root refused.
	far2 := float32(math.Inf(1))
	if s.Cut != grid.AllCut {
		far2 = cutDist2(s.Cut - 1)
	}
	q.objCut = objectCut{at: at, scope: sc, far2: far2, room: weight < uint64(limit), valid: true, n: int(weight), sum: sum}
	w.sendObjectOps(q, ops)
	return true
}

// membersIDs appends the ids of the objects below o.
func membersIDs(o *Object, ids []uint32) []uint32 {
	for _, c := range o.children {
		ids = append(ids, c.id)
		ids = membersIDs(c, ids)
	}
	return ids
}

// objectStepFrom records, after a listed pass of q's object view at at in
// sc, the answer's cut as the next step's start, when the wanted set was
// the grid's answer as it is (plain) and its cut is known: hits listed
// (the grid's answer, or a box's with its sure part), or an answer found
// steady whose cut objectsSteady could tell.
func (w *World) objectStepFrom(q *Player, sc grid.Scope, at grid.Vec, plain, same bool) {
	st := q.spots[cacheObjects].stepOf()
	g := w.ents.objectGrid.Lookup(sc)
	switch {
	case !plain || g == nil || w.bruteForce:
		st.ok = false
	case same:
		st.ok = false
		if w.caches.objCutOK {
			st.set(sc, g, at, w.caches.objCut)
		}
	default:
		st.set(sc, g, at, grid.CutOf(w.ents.hits, stream.Objects.Limit()))
	}
}

// bandStepMax bounds the hits of a band step (compared pairwise).
const bandStepMax = 128

// objectBandStep patches q's view v for a settled player whose answer came
// from the same box as the last (decision 0232): the box's sure part is
// the same set, so the answer changed only in the band's hits, old to
// new. The old answer is the sure part and old; v is patched if it shows
// exactly that (Patch's check), else false and nothing is done (the pass
// lists the set as before). A hit whose rev changed between the two (kept
// but to be sent again) refuses the step too: Patch only hides and shows.
func (w *World) objectBandStep(q *Player, v *stream.View, box *grid.Box, old, new []grid.Hit) bool {
	c := &w.caches
	if len(old) > bandStepMax || len(new) > bandStepMax {
		return false
	}
	wasW, wasSum := box.Weight(), box.Sum()
	weight, sum := wasW, wasSum
	hides, shows := c.hides[:0], c.shows[:0]
	for i := range old {
		h := &old[i]
		wasW += uint64(h.Weight)
		wasSum += w.chainSum(h.Key, h.Rev)
		j := slices.IndexFunc(new, func(n grid.Hit) bool { return n.Key == h.Key })
		switch {
		case j < 0:
			hides = append(hides, h.Key)
			if h.Weight > 1 {
				hides = membersIDs(w.ents.objects.at(h.Key), hides)
			}
		case new[j].Rev != h.Rev || new[j].Weight != h.Weight:
			return false
		}
	}
	for i := range new {
		h := &new[i]
		weight += uint64(h.Weight)
		sum += w.chainSum(h.Key, h.Rev)
		if slices.ContainsFunc(old, func(o grid.Hit) bool { return o.Key == h.Key }) {
			continue
		}
		shows = w.rootWants(h, shows)
	}
	c.hides, c.shows = hides, shows
	if weight > uint64(stream.Objects.Limit()) {
		return false // Reconcile would trim it
	}
	ops, ok := v.Patch(int(wasW), wasSum, hides, shows, q.conn.Free()-SendReserve, stream.HidesFirst, w.ents.ops[:0])
	w.ents.ops = ops
	if !ok {
		c.bandRefused++
		return false
	}
	c.bandSteps++
	c.objPatched = true
	c.objN, c.objSum = int(weight), sum
	c.objCut, c.objCutOK = grid.AllCut, weight < uint64(stream.Objects.Limit())
	return true
}
