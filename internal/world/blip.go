package world

import (
	"fmt"
	"math"

	"dlmp/internal/grid"
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

// fill writes the blip's show into s.
func (b *Blip) fill(s *wire.Blip) {
	*s = wire.Blip{BlipID: b.id, Active: 1, Sprite: b.params.Sprite, Color: b.params.Color, X: b.at.X, Y: b.at.Y, Z: b.at.Z,
		AttachKind: b.params.AttachKind, AttachID: b.params.AttachID, Size: b.params.Size, Flags: b.params.Flags}
}
