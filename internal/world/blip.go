package world

import (
	"fmt"
	"math"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// Radar blips (world.md Blip). A blip is shown to a player in its scope (an
// attached blip: its entity's scope), among the 100 nearest, and, when the
// gamemode set a draw distance, within it: a blip is shown within the draw
// distance and, once shown, hidden only BlipHysteresis meters past it. A
// blip attached to a player is never shown to that player and is shown to
// others only once both have spawned for the first time. An attached blip
// stands where the entity was: it is moved at most once every SlowPass, when
// the entity moved more than BlipFollow meters, and never to a point outside
// world bounds (it keeps the last valid one). A blip attached to a player
// who leaves is deleted with them (docs/decisions/0115-per-player-primitives.md).
const (
	// BlipHysteresis is how far, meters, past its draw distance a shown blip
	// stays shown.
	BlipHysteresis = 10
	// BlipFollow is how far, meters, an attached blip's entity moves before
	// the blip is moved.
	BlipFollow = 5
)

// BlipParams is what create_blip takes and a change replaces.
type BlipParams struct {
	Sprite       uint8      // icon 1..63, 0 = a dot in Color; 0 when attached
	Color        uint32     // 0xRRGGBB
	Pos          grid.Vec   // unused when attached: the entity's position counts
	AttachKind   uint8      // wire.AttachNone, wire.AttachPlayer or wire.AttachVehicle
	AttachID     uint32     // the player or vehicle id when attached
	Size         float32    // 0.25..4; 0 means 1
	Flags        uint8      // wire.BlipPulse | wire.BlipShortRange
	Scope        grid.Scope // ignored when attached: the entity's scope counts
	DrawDistance float32    // meters; 0 = no limit
}

// Blip is one radar blip. Read it with [World.Blip].
type Blip struct {
	params BlipParams
	id     uint32
	rev    uint32   // grows with every change and every follow
	at     grid.Vec // where the blip stands (an attached one: where its entity was)
	placed bool     // an attached blip has a position
	h      grid.Handle
	edge   grid.Handle // in prims.blipEdgeG, with a draw distance
	slot   uint32      // key in the grid and in prims.blipHot when unattached
	ai     int         // index in prims.attList when attached
}

// ID returns the blip id.
func (b *Blip) ID() uint32 { return b.id }

// Params returns the blip's current parameters.
func (b *Blip) Params() BlipParams { return b.params }

// Position returns where the blip stands: its position, or for an attached
// blip the last valid position of its entity that it was moved to.
func (b *Blip) Position() grid.Vec { return b.at }

func (b *Blip) attached() bool { return b.params.AttachKind != wire.AttachNone }

// Blip returns the blip with the id, or nil.
func (w *World) Blip(id uint32) *Blip { return w.prims.blips[id] }

// CreateBlip creates a blip and returns its id (one counter with labels,
// gang zones and checkpoints). The parameters are checked with Blip's send
// rules; an attached player must be connected.
func (w *World) CreateBlip(bp BlipParams) (uint32, error) {
	if err := w.checkBlip("create_blip", &bp); err != nil {
		return 0, err
	}
	b := &Blip{params: bp, id: w.prims.nextID(), rev: 1}
	w.prims.blips[b.id] = b
	w.placeBlip(b)
	w.blipChanged(b, b.params)
	return b.id, nil
}

// SetBlip replaces a blip's parameters; every player who sees it gets the
// new show, or a hide if they no longer should.
func (w *World) SetBlip(id uint32, bp BlipParams) error {
	b := w.prims.blips[id]
	if b == nil {
		return stateErr("set_blip", "blip", "no blip %d", id)
	}
	if err := w.checkBlip("set_blip", &bp); err != nil {
		return err
	}
	old := b.params
	w.unplaceBlip(b)
	b.params = bp
	b.rev++
	w.placeBlip(b)
	if inPlaceBlip(&old, &bp) {
		w.blipShownChanged(b)
		return nil
	}
	w.blipChanged(b, old)
	return nil
}

// inPlaceBlip reports whether a change from a to b leaves an unattached
// blip where it was, with the same reach: then it is wanted by the same
// players as before, and only those who have it shown need its new show.
func inPlaceBlip(a, b *BlipParams) bool {
	return a.AttachKind == wire.AttachNone && b.AttachKind == wire.AttachNone &&
		a.Pos == b.Pos && a.Scope == b.Scope && a.DrawDistance == b.DrawDistance
}

// blipShownChanged marks for the next tick the players who have b shown
// (docs/decisions/0197-in-place-changes.md).
func (w *World) blipShownChanged(b *Blip) {
	f := w.farOf(b)
	for _, p := range w.players {
		if p != nil && !p.gone && p.prims.blips != nil {
			if _, shown := p.prims.blips.Shown(b.id); shown {
				p.prims.blipsDirty = true
				refreshFar(p.prims.farBlips, f) // a new rev only: the copy stays exact
			}
		}
	}
}

// DeleteBlip deletes a blip: every player it is shown to gets a hide.
func (w *World) DeleteBlip(id uint32) error {
	b := w.prims.blips[id]
	if b == nil {
		return stateErr("delete_blip", "blip", "no blip %d", id)
	}
	w.unplaceBlip(b)
	delete(w.prims.blips, id)
	w.blipChanged(b, b.params)
	return nil
}

func (w *World) checkBlip(fn string, bp *BlipParams) error {
	if bp.Size == 0 {
		bp.Size = 1
	}
	if !(bp.DrawDistance >= 0 && bp.DrawDistance <= math.MaxFloat32) {
		return &ArgError{Func: fn, Arg: "draw_distance", Rule: fmt.Sprintf("must be 0 (no limit) or a positive number, got %v", bp.DrawDistance)}
	}
	if bp.AttachKind != wire.AttachNone {
		bp.Pos = grid.Vec{}
	}
	pkt := wire.Blip{Active: 1, Sprite: bp.Sprite, Color: bp.Color, X: bp.Pos.X, Y: bp.Pos.Y, Z: bp.Pos.Z,
		AttachKind: bp.AttachKind, AttachID: bp.AttachID, Size: bp.Size, Flags: bp.Flags}
	if err := pkt.CheckSend(); err != nil {
		return fieldArgErr(fn, err)
	}
	return w.checkAttach(fn, bp.AttachKind, bp.AttachID)
}

func (w *World) placeBlip(b *Blip) {
	if b.attached() {
		b.placed = false
		w.follow(b)
		w.prims.attBlip[b.id] = b
		b.ai = len(w.prims.attList)
		w.prims.attList = append(w.prims.attList, b)
		return
	}
	b.at = b.params.Pos
	r := float32(math.Inf(1))
	if b.params.DrawDistance > 0 {
		r = b.params.DrawDistance // the hysteresis band: blipWants, from the blips shown
	}
	pr := &w.prims
	b.slot = pr.blipHot.add(b.id)
	if int(b.slot) >= len(pr.blipSlots) {
		pr.blipSlots = append(pr.blipSlots, make([]blipSlot, int(b.slot)+1-len(pr.blipSlots))...)
	}
	pr.blipSlots[b.slot] = blipSlot{at: b.at, dd: b.params.DrawDistance}
	g := pr.blipG.Get(b.params.Scope)
	b.h = g.Insert(b.slot, b.at, r)
	g.SetRev(b.h, b.rev) // the box caches' fingerprints read it
	if b.params.DrawDistance > 0 {
		b.edge = pr.blipEdgeG.Get(b.params.Scope).Insert(b.id, b.at, r+blipEdgeReach)
	}
}

func (w *World) unplaceBlip(b *Blip) {
	if b.attached() {
		delete(w.prims.attBlip, b.id)
		l := w.prims.attList
		last := l[len(l)-1]
		l[b.ai], last.ai = last, b.ai
		l[len(l)-1] = nil
		w.prims.attList = l[:len(l)-1]
		return
	}
	w.prims.blipHot.remove(b.slot)
	w.prims.blipSlots[b.slot] = blipSlot{}
	g := w.prims.blipG.Get(b.params.Scope)
	g.Remove(b.h)
	if g.Len() == 0 {
		w.prims.blipG.Prune(b.params.Scope)
	}
	if b.params.DrawDistance > 0 {
		eg := w.prims.blipEdgeG.Get(b.params.Scope)
		eg.Remove(b.edge)
		if eg.Len() == 0 {
			w.prims.blipEdgeG.Prune(b.params.Scope)
		}
	}
}

// follow moves an attached blip to its entity when the entity is more than
// BlipFollow meters away (or the blip has no position yet) and within world
// bounds, and reports whether it moved.
func (w *World) follow(b *Blip) bool {
	pos, _, ok := w.attachedAt(b.params.AttachKind, b.params.AttachID)
	if !ok || !inWorld(pos) {
		return false
	}
	if b.placed && grid.Dist2(pos, b.at) <= BlipFollow*BlipFollow {
		return false
	}
	b.at, b.placed = pos, true
	b.rev++
	return true
}

// followBlips moves the attached blips whose entity moved, once a second
// for the whole world: the position the gamemode reads (Blip.Position).
// Marking every player who sees one for the next tick would put 1000 blip
// reconciles in one tick once a second (docs/decisions/0195-flat-ticks.md).
func (w *World) followBlips() {
	for _, b := range w.prims.attList {
		w.follow(b)
	}
}

// blipChanged marks for the next tick every player who has the blip shown
// or may see it now: a blip without a draw distance concerns everyone in
// its scope, so many changes in one tick cost one reconcile per player.
func (w *World) blipChanged(b *Blip, old BlipParams) {
	f := w.farOf(b)
	for _, p := range w.players {
		if p == nil || p.gone {
			continue
		}
		p.prims.init()
		_, shown := p.prims.blips.Shown(b.id)
		if shown && f.state == farLive && b.params.DrawDistance > 0 {
			p.prims.farBlips = addFar(p.prims.farBlips, f) // shown, now with a band
		} else {
			refreshFar(p.prims.farBlips, f)
		}
		if shown && f.state == farAttached {
			p.prims.attShown = addAttShown(p.prims.attShown, b) // shown, now attached
		} else if shown {
			p.prims.attShown = removeAttShown(p.prims.attShown, b.id) // deleted or no longer attached
		}
		if shown || w.blipNear(p, b, &b.params) || w.blipNear(p, b, &old) {
			p.prims.blipsDirty = true
		}
	}
}

func (w *World) blipNear(p *Player, b *Blip, bp *BlipParams) bool {
	if bp.AttachKind != wire.AttachNone {
		return true
	}
	if bp.Scope != p.scope {
		return false
	}
	r := bp.DrawDistance + BlipHysteresis
	return bp.DrawDistance == 0 || p.hasPos && grid.Dist2(p.pos, bp.Pos) <= r*r
}

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

// fill writes the blip's show into s.
func (b *Blip) fill(s *wire.Blip) {
	*s = wire.Blip{BlipID: b.id, Active: 1, Sprite: b.params.Sprite, Color: b.params.Color, X: b.at.X, Y: b.at.Y, Z: b.at.Z,
		AttachKind: b.params.AttachKind, AttachID: b.params.AttachID, Size: b.params.Size, Flags: b.params.Flags}
}
