package world

import (
	"math"
	"slices"

	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// Object streaming (world.md ObjectState). A chain is wanted by player q
// when its root is in the scope of q's stream center, the center is within
// the root's stream distance of the root, the root has no viewer or q is
// its viewer, and, for a root attached to a player or a vehicle, that
// parent is shown to q (a player is always shown to themselves). The
// wanted chains are the nearest whose weights (1 + the objects below the
// root) fit the 1000-object limit: a chain counts whole or not at all.
// A reconcile leaves SendReserve slots of the send queue free, sends hides
// before shows and the nearest shows first; what does not fit goes on the
// next tick.

// objectCenter returns where q's objects are streamed from: the point of a
// held spawn, or the player's stream center; ok is false before either.
func (q *Player) objectCenter() (grid.Scope, grid.Vec, bool) {
	if h := q.ent.hold; h != nil {
		return h.scope, h.at, true
	}
	return q.scope, q.pos, q.hasPos
}

// streamObjects reconciles q's view of objects when it is due.
func (w *World) streamObjects(q *Player) {
	e := &q.ent
	sc, at, ok := q.objectCenter()
	if !ok || q.gone || q.left {
		return
	}
	if !e.objectAt.Due(at, ObjectRequery) && !(q.objCut.left && e.objects.Pending() > 0) {
		return
	}
	w.ents.passes[2]++
	plain := !w.bruteForce && w.objectsPlain(q, sc, at)
	if plain && w.objectStep(q, sc, at) {
		q.objCut.left = e.objects.Pending() > 0
		return
	}
	wants, same := w.objectWants(q, sc, at, w.ents.wants[:0], e.objects)
	w.ents.wants = wants
	e.objectAt.Mark(at)
	w.objectStepFrom(q, sc, at, plain, same)
	if same {
		if e.hold != nil {
			e.hold.any = w.caches.objN > 0
		}
		q.objCut.keep(sc, at, w.caches.objN, w.caches.objSum)
		if w.caches.objPatched { // a band step (objectBandStep): its ops
			w.caches.objPatched = false
			w.sendObjectOps(q, w.ents.ops)
		}
		q.objCut.left = e.objects.Pending() > 0
		return
	}
	if e.hold != nil {
		e.hold.any = len(wants) > 0
	}
	w.ents.ops = e.objects.Reconcile(wants, q.conn.Free()-SendReserve, stream.HidesFirst, w.ents.ops[:0])
	q.objCut.record(sc, at, w.ents.hits, wants)
	q.objCut.left = e.objects.Pending() > 0
	w.sendObjectOps(q, w.ents.ops)
}

// objectCut is what a player's object view was last computed from: the
// query point and scope, and how far the nearest-N cut reached. A change
// of a root r at distance d from that point can alter the view's wanted set
// only if r is within its stream distance and either d is within the
// farthest root selected (it may enter, leave or reorder the selection) or
// the selection left room for one more root; otherwise the set computed
// again would be the same, and objectTouched leaves the view alone
// (docs/decisions/0196-object-views-touched-within-the-cut.md).
//
// A view found unchanged from a box (objectWants' steady check) does not
// list its selection, so its cut is not computed: it keeps the cut it had
// if that was computed at the same point from the same set (same count and
// fingerprint), else it takes the widest cut (every root within its stream
// distance reaches it) until its next listed computation.
type objectCut struct {
	// left: the view had ops left for lack of room after the computation
	// (set by every call that reconciles or patches it: streamObjects,
	// landObjects), so that a view that is not due is asked for them
	// only then (its Pending is a cold read; decision 0307). Set after
	// the cut is recorded or kept, which rewrite the rest.
	left bool

	at    grid.Vec
	scope grid.Scope
	far2  float32 // the farthest root selected, squared distance
	room  bool    // the selection weighs less than the limit: a farther root may have been left out only for its weight
	valid bool
	n     int    // the objects wanted
	sum   uint64 // their fingerprint (stream.Mix summed)
}

// record keeps the cut of a view computed at at in sc, hits the roots
// selected (q's own chains included, at distance 0), wants the wanted set.
func (c *objectCut) record(sc grid.Scope, at grid.Vec, hits []grid.Hit, wants []stream.Want) {
	far2, weight := float32(0), 0
	for _, h := range hits {
		far2 = max(far2, h.Dist2)
		weight += int(h.Weight)
	}
	var sum uint64
	for _, wt := range wants {
		sum += stream.Mix(wt.ID, wt.Rev)
	}
	*c = objectCut{at: at, scope: sc, far2: far2, room: weight < stream.Objects.Limit(), valid: true, n: len(wants), sum: sum}
}

// keep is record for a view found unchanged at at in sc, its wanted set of
// n objects with fingerprint sum not listed.
func (c *objectCut) keep(sc grid.Scope, at grid.Vec, n int, sum uint64) {
	if c.valid && c.scope == sc && c.at == at && c.n == n && c.sum == sum {
		return
	}
	*c = objectCut{at: at, scope: sc, far2: float32(math.Inf(1)), room: true, valid: true, n: n, sum: sum}
}

// reaches reports whether a change of root r, at pos in its grid, may alter
// the view: see objectCut.
func (c *objectCut) reaches(r *Object, pos grid.Vec) bool {
	if !c.valid || c.scope != r.gscope {
		return false
	}
	d2 := grid.Dist2(c.at, pos)
	return d2 <= r.dist*r.dist && (d2 <= c.far2 || c.room)
}

// sendObjectOps queues the shows and hides of a reconcile, critical.
//
// The shows are filled first, all of them, then sent: a show reads its
// object (a cache miss in a world of a million), and reads that do not
// wait on each other overlap, where a send between two of them (encoding,
// the connection) would make each wait its turn (decision 0234).
func (w *World) sendObjectOps(q *Player, ops []stream.Op) {
	c := &w.caches
	objs := c.showObjs[:0]
	// The shows' objects are found first (from the chunk table, cached:
	// objectTable, decision 0363), then what a show reads of each is
	// loaded (its first 64 bytes, one cache line, a miss), in a loop short
	// enough that the CPU has many of these misses in flight (the fill
	// below does too much per object for that; decision 0359). The branch
	// on mv is predicted, so nothing waits on it.
	for _, op := range ops {
		if op.Show {
			objs = append(objs, w.ents.objects.at(op.ID))
		}
	}
	moving, ids := 0, uint32(0)
	for _, o := range objs {
		if o.mv != nil {
			moving++
		}
		ids ^= o.id
	}
	c.showMoving, c.showIDs = moving, ids
	shows := slices.Grow(c.shows2[:0], len(objs))[:len(objs)]
	for i, o := range objs {
		w.fillObject(o, &shows[i])
	}
	clear(objs)
	c.showObjs, c.shows2 = objs, shows
	// Shows are encoded without ObjectState.CheckSend (decision 0343): what
	// fillObject reads was checked by the send rules when it was set
	// (create, pose, move, attach, break), and the object tests check
	// every ObjectState sent (objectOps). A hide is an id alone.
	s, n := &w.ents.os, 0
	for _, op := range ops {
		if op.Show {
			w.buf = shows[n].Append(w.buf[:0])
			n++
		} else {
			*s = wire.ObjectState{ObjectID: op.ID}
			w.buf = s.Append(w.buf[:0])
		}
		w.sendEncoded(q, w.buf, lane.Critical)
	}
}

// objectWants appends the objects q wants from the point at in scope sc,
// chains expanded (see stream.Want). With v, q's view, a wanted set equal
// to the shown one is recognized from the box cache's answer without a
// list: then v did what its Reconcile would, same is true, and the set's
// count and fingerprint are in w.caches.objN and objSum.
//
// The roots wanted by distance alone are in the object grid, whose box
// cache answers its nearest-N at the full limit; the roots with a
// per-player rule are in their own grid (rootScopes), and those covering
// the point and wanted by q are added. The selection is the nearest prefix
// of the two that fits what q's own chains leave: a prefix of the cache's
// answer (a smaller limit cuts a prefix of the same order), merged with the
// added roots. That merge is exact when the answer holds every plain root
// covering the point (it weighs at most the limit less the heaviest plain
// chain, so none was refused); otherwise the grid is asked. With neither
// own chains nor ruled roots (the usual case), the selection is the answer
// itself, which the steady check counts without listing the box; and when
// the answer came from the box of the last one and changed only in its
// band, v is patched from the band (objectBandStep, decision 0232): same
// is true then too, the ops in w.ents.ops and w.caches.objPatched set.
func (w *World) objectWants(q *Player, sc grid.Scope, at grid.Vec, wants []stream.Want, v *stream.View) (_ []stream.Want, same bool) {
	limit := stream.Objects.Limit()
	hits := w.ents.hits[:0]
	// q's own chains travel with q (a landing, a change of interior): always
	// wanted, nearest of all, whatever grid their root is in now.
	for _, r := range q.ent.attached {
		if r.viewer == nil || r.viewer == q {
			// Its members' sum is kept only while the root is in a grid
			// (syncRoot): computed here, as q's chains may stand in none.
			w.ents.hot[r.id].members = membersSum(r)
			hits = append(hits, grid.Hit{Key: r.id, Rev: gridRev(r), Weight: uint32(1 + r.chain)})
			limit -= 1 + r.chain // what the others may weigh
		}
	}
	own := len(hits)
	if w.bruteForce {
		hits = w.objectHitsBrute(q, sc, at, hits) // never q's own
		hits = hits[:own+grid.SelectNearest(hits[own:], limit)]
	} else {
		// The roots with a rule first: hits[own:ruled].
		if g := w.ruledRoots.Lookup(sc); g != nil {
			found := g.Covering(at, hits)
			hits = found[:own]
			for _, h := range found[own:] {
				if r := w.ents.objects.at(h.Key); !(r.kind == KindPlayer && r.parentID == uint32(q.id)) && w.rootWanted(r, q) {
					hits = append(hits, h)
				}
			}
		}
		ruled := len(hits)
		oc := w.caches.kinds[cacheObjects]
		g, c := oc.get(sc)
		if g == nil {
			hits = hits[:own+grid.SelectNearest(hits[own:], limit)]
		} else {
			// The last answer of a box, for a band step (objectBandStep).
			sp := &q.spots[cacheObjects]
			prev, prevOK := sp.box, ruled == 0 && v != nil && sp.memo && sp.box != nil && sp.box != noBox
			if prevOK {
				w.caches.prevHits = append(w.caches.prevHits[:0], sp.hits...)
			}
			box, ans := oc.query(g, c, sp, sc, at, hits)
			hits = ans
			plainW, extraW := box.Weight(), uint64(0)
			for _, h := range hits[ruled:] {
				plainW += uint64(h.Weight)
			}
			for _, h := range hits[own:ruled] {
				extraW += uint64(h.Weight)
			}
			switch {
			case ruled == 0 || plainW+uint64(w.caches.objMaxW) <= uint64(stream.Objects.Limit()):
				// Nothing to merge, or the answer is every plain root covering
				// the point (no root was refused: the heaviest chain would
				// have fit): the selection is from the answer and the rest.
				fits := plainW+extraW <= uint64(max(limit, 0))
				if v != nil && fits && w.objectsSteady(v, box, hits[:ruled], hits[ruled:]) {
					w.ents.hits = hits
					return wants, true
				}
				if prevOK && box == prev && w.objectBandStep(q, v, box, w.caches.prevHits, hits) {
					w.ents.hits = hits
					return wants, true
				}
				hits = box.AppendSure(at, hits)
				if !fits {
					hits = hits[:own+grid.SelectNearest(hits[own:], limit)]
				}
			case ruled == own: // q's own chains only: the nearest at what they leave
				hits = g.Nearest(at, limit, hits[:own])
			default:
				// A cut to merge with the ruled roots. The nearest at the limit
				// plus the heaviest chain hold the first root the limit refused
				// (if any), which stops the merged prefix: no ruled root after
				// it may slip in.
				hits = g.Nearest(at, stream.Objects.Limit()+w.caches.objMaxW, hits[:ruled])
				hits = hits[:own+grid.SelectNearest(hits[own:], limit)]
			}
		}
	}
	for _, h := range hits {
		wants = w.rootWants(&h, wants)
	}
	w.ents.hits = hits
	return wants, false
}

// objectsSteady is objectWants' steady check: the wanted set is q's own
// chains and the added roots (fixed), the box's sure part and the band's
// hits (band), all of it, each root fingerprinted with its chain.
func (w *World) objectsSteady(v *stream.View, box *grid.Box, fixed, band []grid.Hit) bool {
	weight, sum := box.Weight(), box.Sum()
	for _, hs := range [2][]grid.Hit{fixed, band} {
		for _, h := range hs {
			weight += uint64(h.Weight)
			sum += w.chainSum(h.Key, h.Rev)
		}
	}
	if !v.Unchanged(int(weight), weight, sum) {
		return false
	}
	// The answer's cut for the view's next step (objectStepFrom): nothing
	// cut when it weighs less than the limit (grid.CutOf); else a box's
	// sure part would have to be listed for it, and the grid's answer
	// (noBox) is listed whole.
	c := &w.caches
	c.objCut, c.objCutOK = grid.AllCut, true
	if weight >= uint64(stream.Objects.Limit()) {
		c.objCut, c.objCutOK = grid.CutOf(band, stream.Objects.Limit()), box == noBox
	}
	w.caches.objN, w.caches.objSum = int(weight), sum
	w.caches.steady[cacheObjects]++
	return true
}

// chainWants appends the objects below o, parents before children.
func (w *World) chainWants(r, o *Object, depth uint16, d2 float32, wants []stream.Want) []stream.Want {
	for _, c := range o.children {
		wants = append(wants, stream.Want{ID: c.id, Rev: c.rev, Dist2: d2, Root: r.id, Depth: depth})
		wants = w.chainWants(r, c, depth+1, d2, wants)
	}
	return wants
}

// rootWanted reports whether the chain of root r, found in the grid, may be
// shown to q, apart from distance and scope: q is its viewer (or it has
// none) and its parent player or vehicle is shown to q. (q's own chains
// are not taken from the grid: they are added at distance 0, see
// objectWants.)
func (w *World) rootWanted(r *Object, q *Player) bool {
	if r.viewer != nil && r.viewer != q {
		return false
	}
	switch r.kind {
	case KindPlayer:
		_, ok := q.ent.players.Shown(r.parentID)
		return ok
	case KindVehicle:
		_, ok := q.ent.vehiclesV.Shown(r.parentID)
		return ok
	}
	return true
}

// objectHitsBrute is the baseline of the benchmarks: every root tested.
func (w *World) objectHitsBrute(q *Player, sc grid.Scope, at grid.Vec, hits []grid.Hit) []grid.Hit {
	w.ents.objects.each(func(r *Object) {
		if !r.inGrid || r.gscope != sc {
			return
		}
		_, pos, _ := w.rootPlace(r)
		if d := grid.Dist2(at, pos); d <= r.dist*r.dist && w.rootWanted(r, q) {
			hits = append(hits, grid.Hit{Key: r.id, Rev: gridRev(r), Dist2: d, Weight: uint32(1 + r.chain)})
		}
	})
	return hits
}

// rootWants appends the wants of the root hit h: the root, and below it
// its chain, at the root's distance.
func (w *World) rootWants(h *grid.Hit, wants []stream.Want) []stream.Want {
	wants = append(wants, stream.Want{ID: h.Key, Rev: w.hitRev(h), Dist2: h.Dist2, Chain: uint16(h.Weight - 1)})
	if h.Weight > 1 {
		r := w.ents.objects.at(h.Key)
		wants = w.chainWants(r, r, 1, h.Dist2, wants)
	}
	return wants
}
