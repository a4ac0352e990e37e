package world

import (
	"math"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// A player's view of blips: what it wants (the 100 nearest in scope, draw
// distances with their hysteresis, the attached blips' rules) and its
// reconcile (blip.go is the blips themselves).

// reconcileBlips diffs p's blip view against the blips p should see now.
func (w *World) reconcileBlips(p *Player) {
	if p.gone || p.left {
		return
	}
	s := &p.prims
	s.init()
	pr := &w.prims
	pr.passes[primBlips]++
	if !w.stepBlips(p) {
		var same bool
		if pr.wants, same = w.blipWants(p, pr.wants[:0], s.blips); same {
			return
		}
		pr.ops = s.blips.Reconcile(pr.wants, takeRoom(p), stream.HidesFirst, pr.ops[:0])
	}
	w.sendBlipOps(p)
}

// sendBlipOps sends p the shows and hides of its blip view's pass
// (prims.ops) and keeps its far and attached blips shown with them.
func (w *World) sendBlipOps(p *Player) {
	pr := &w.prims
	s := &p.prims
	pkt := &pr.blip
	for _, op := range pr.ops {
		if op.Show {
			b := pr.blips[op.ID]
			b.fill(pkt)
			if !b.attached() && b.params.DrawDistance > 0 {
				s.farBlips = addFar(s.farBlips, w.farOf(b))
			}
			if b.attached() {
				s.attShown = addAttShown(s.attShown, b)
			}
		} else {
			*pkt = wire.Blip{BlipID: op.ID, Size: 1}
			s.farBlips = removeFar(s.farBlips, op.ID)
			s.attShown = removeAttShown(s.attShown, op.ID)
		}
		sendOp(w, p, pkt)
	}
}

// blipVisible applies the draw distance with its hysteresis: within it, or
// shown and at most BlipHysteresis past it.
func blipVisible(v *stream.View, b *Blip, d2 float32) bool {
	dist := b.params.DrawDistance
	if dist == 0 || d2 <= dist*dist {
		return true
	}
	r := dist + BlipHysteresis
	if d2 > r*r {
		return false
	}
	_, shown := v.Shown(b.id)
	return shown
}

// blipWants appends the blips p should see: the attached ones, and the
// unattached ones within their draw distance or, shown, within its
// hysteresis band, of which the view keeps the 100 nearest. The grid holds
// the unattached blips with their draw distance as radius: its 100 nearest
// hold every blip within its distance that can be among the 100 nearest
// wanted; the shown blips in their band come from the player's farBlips
// (every unattached blip with a draw distance shown to p), a few. With v's
// steady check (see labelWants): the box cache's answer with those.
func (w *World) blipWants(p *Player, wants []stream.Want, v *stream.View) (_ []stream.Want, same bool) {
	pr := &w.prims
	vw := p.prims.blips
	if w.bruteForce {
		wants = w.attachedBlipWants(p, wants, float32(math.Inf(1)))
		for _, b := range pr.blips {
			if b.attached() || b.params.Scope != p.scope {
				continue
			}
			if d := grid.Dist2(p.pos, b.at); blipVisible(vw, b, d) {
				wants = append(wants, stream.Want{ID: b.id, Rev: b.rev, Dist2: d})
			}
		}
		return wants, false
	}
	bc := w.caches.kinds[cacheBlips]
	g, c := bc.get(p.scope)
	// With attached blips in the world (player markers) and a view to
	// check, the extras are listed after the answer (below): no hold is
	// taken with them anyway.
	markers := v != nil && c != nil && len(pr.attBlip) > 0
	if !markers {
		wants = w.blipExtras(p, wants, float32(math.Inf(1)))
	}
	if c == nil {
		return wants, false
	}
	// A hold (blip_hold.go) for a wanted set that is the answer alone, but
	// at the point of the last answer, which the cache repeats (0215).
	hold := v != nil && len(wants) == 0 && len(pr.attBlip) == 0
	sp := &p.spots[cacheBlips]
	if h := &p.prims.blipHold; hold && !(sp.memo && sp.at == p.pos) && h.holds(g, p.pos) && v.Unchanged(h.n, uint64(h.n), h.sum) {
		w.caches.steady[cacheBlips]++
		pr.blipHolds++
		return wants, true
	}
	settled := sp.ok && sp.scope == p.scope && grid.Dist2(sp.at, p.pos) <= cacheSettle*cacheSettle
	box, hits := bc.query(g, c, sp, p.scope, p.pos, pr.hits[:0])
	pr.hits = hits
	listed := false
	if markers {
		// An answer that fills the limit is listed first: attached blips
		// farther than all of it are those pastTrim drops below, and are
		// not listed (a thousand wants with a marker on every player).
		far2 := float32(math.Inf(1))
		if box.Len()+len(hits) >= stream.Blips.Limit() {
			pr.hits, listed = box.AppendSure(p.pos, hits), true
			far2 = 0
			for i := range pr.hits {
				far2 = max(far2, pr.hits[i].Dist2)
			}
		}
		wants = w.blipExtras(p, wants, far2)
	}
	if v != nil {
		n, weight, sum := bc.answerSum(box, hits)
		if hold && settled && !p.prims.blipHold.near(g, p.pos) {
			w.holdBlips(p, g, n, sum)
		}
		if len(wants) > 0 && n+len(wants) > stream.Blips.Limit() {
			// Extras past the limit (a marker on every player): the answer
			// listed tells which the trim drops for sure (pastTrim), so
			// that the steady check counts only the others.
			if !listed {
				pr.hits, listed = box.AppendSure(p.pos, hits), true
			}
			wants = pastTrim(wants, pr.hits)
		}
		for _, wt := range wants {
			sum += stream.Mix(wt.ID, wt.Rev)
		}
		n, weight = n+len(wants), weight+uint64(len(wants))
		if listed && n > stream.Blips.Limit() { // the trim's set, counted for a settled player
			var ok bool
			if !settled {
				n = -1 // moved: the step refused, the set changed (listed)
			} else if n, sum, ok = w.trimmedSum(pr.hits, wants); !ok {
				n = -1 // a tie at the trim's cut: listed
			}
			weight = uint64(max(n, 0))
		}
		if n >= 0 && v.Unchanged(n, weight, sum) {
			w.caches.steady[cacheBlips]++
			if listed || box.Len() == 0 { // the grid's answer, whole: its cut is known
				w.keepBlips(&p.prims.blipStep, g, p.pos, wants, pr.hits)
			} else if p.prims.blipStep.at != p.pos {
				p.prims.blipStep = primStep{}
			}
			return wants, true
		}
	}
	// The view keeps the 100 nearest of the whole: the blips within their
	// distance past the grid's 100 nearest are behind 100 others.
	if !listed {
		pr.hits = box.AppendSure(p.pos, hits)
	}
	wants = pastTrim(wants, pr.hits)
	w.keepBlips(&p.prims.blipStep, g, p.pos, wants, pr.hits)
	for _, h := range pr.hits {
		wants = append(wants, stream.Want{ID: pr.blipHot.v[h.Key], Rev: h.Rev, Dist2: h.Dist2})
	}
	return wants, false
}

// attachedBlipWants appends the attached blips p should see. On p's slow
// pass (prims.follow) each of them first follows its entity: p gets an
// entity's new position within SlowPass of the move, once a second at its
// own phase. A follow by the world's timer alone reached a viewer up to
// two seconds late (the timer's second, then the viewer's phase:
// docs/decisions/0236-attached-blips-per-viewer.md). Every one of them
// follows; only those within far2 (squared meters) of p are appended: a
// step knows that farther ones are past its cut (blip_step.go).
func (w *World) attachedBlipWants(p *Player, wants []stream.Want, far2 float32) []stream.Want {
	if p.life == NotSpawned {
		return wants
	}
	for _, b := range w.prims.attList {
		if !w.blipAttachedShown(b, p) {
			continue
		}
		if w.prims.follow {
			w.follow(b)
		}
		if !b.placed {
			continue
		}
		if d := grid.Dist2(p.pos, b.at); d <= far2 && blipVisible(p.prims.blips, b, d) {
			wants = append(wants, stream.Want{ID: b.id, Rev: b.rev, Dist2: d})
		}
	}
	return wants
}

// blipExtras appends the blips p should see that the blip grid's answer
// does not hold: the attached ones, and the shown ones in their draw
// distance's band (farBlips); of the attached ones, those within far2.
func (w *World) blipExtras(p *Player, wants []stream.Want, far2 float32) []stream.Want {
	wants = w.attachedBlipWants(p, wants, far2)
	for i := range p.prims.farBlips {
		f := &p.prims.farBlips[i]
		if f.state != farLive || f.scope != p.scope || f.dd == 0 {
			continue
		}
		// blipVisible's test from the copy: the Blip (its rev) is read only
		// for a blip shown in its band.
		r, d := f.dd, grid.Dist2(p.pos, f.at)
		if rh := r + BlipHysteresis; d <= r*r || d > rh*rh {
			continue // within its draw distance (the grid's answer), or past the band
		}
		if _, shown := p.prims.blips.Shown(f.id); shown { // in the band, shown
			wants = append(wants, stream.Want{ID: f.id, Rev: f.b.rev, Dist2: d})
		}
	}
	return wants
}

// blipAttachedShown applies the attached blip's rules for recipient p: an
// attached blip is in its entity's scope; on a player it is never shown to
// that player, and waits until both have spawned once.
func (w *World) blipAttachedShown(b *Blip, p *Player) bool {
	switch b.params.AttachKind {
	case wire.AttachPlayer:
		e := w.Player(uint16(min(b.params.AttachID, 0xFFFF)))
		return e != nil && e != p && e.life != NotSpawned && e.scope == p.scope
	case wire.AttachVehicle:
		_, sc, ok := w.attachedAt(b.params.AttachKind, b.params.AttachID)
		return ok && sc == p.scope
	}
	return false
}
