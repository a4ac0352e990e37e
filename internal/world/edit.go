package world

import (
	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// Edit sessions (docs/protocol.md EditState, EntityEdit; world.md's `rev`):
// the gamemode opens a session for a player on some kinds of entity (or one
// entity); the player's client sends EntityEdit carrying the rev of the
// show it edited; the world checks the session, that the entity is shown to
// the player and that the rev is current, then asks the gamemode. An
// accepted edit changes the entity through its ordinary setter (a new rev,
// shown to every viewer, the editor included); a refused or stale one gets
// the entity's current show as a critical correction, so the client's copy
// snaps back.

// EditSession is a player's edit session. Kinds 0 closes it.
type EditSession struct {
	Kinds    uint8  // wire.EditPickups | wire.EditZones | wire.EditColshapes | wire.EditObjects
	EntityID uint32 // 0 = every shown entity of those kinds; else that one entity (one kind)
}

// Edit is an EntityEdit the gamemode decides on (the edit event).
type Edit struct {
	Player *Player
	Kind   uint8 // wire.EditPickup, EditZone, EditColshape or EditObject
	ID     uint32
	// A and B are the edit's values: a pickup's or object's position (A)
	// and an object's rotation (B: rx, ry, rz); a zone's corners (A = min,
	// B = max, z unused); a colshape's a and b.
	A, B grid.Vec
}

// SetEditSession opens, replaces or closes p's edit session (EditState,
// critical).
func (w *World) SetEditSession(p *Player, s EditSession) error {
	pkt := &wire.EditState{Kinds: s.Kinds, EntityID: s.EntityID}
	if s.Kinds != 0 {
		pkt.Active = 1
	} else {
		pkt.EntityID = 0
	}
	if err := pkt.CheckSend(); err != nil {
		return argErr("set_edit_session", "session", err)
	}
	if err := w.send(p, pkt, lane.Critical); err != nil {
		return err
	}
	p.edit = s
	return nil
}

// EditSession returns p's edit session.
func (p *Player) EditSession() EditSession { return p.edit }

// entityEdit handles an EntityEdit that passed its stateless checks.
func (w *World) entityEdit(p *Player, e *wire.EntityEdit) {
	rev, shown := w.editable(p, e.Kind, e.EntityID)
	s := p.edit
	covered := s.Kinds&(1<<e.Kind) != 0 && (s.EntityID == 0 || s.EntityID == e.EntityID)
	switch {
	case !shown:
		w.stats.EditsRefused++ // nothing to correct: the client is not shown the entity
		return
	case !covered || e.Rev != rev:
		w.stats.EditsRefused++
		w.editCorrection(p, e.Kind, e.EntityID)
		return
	}
	ed := Edit{Player: p, Kind: e.Kind, ID: e.EntityID,
		A: grid.Vec{X: e.AX, Y: e.AY, Z: e.AZ}, B: grid.Vec{X: e.BX, Y: e.BY, Z: e.BZ}}
	if !w.gm.EntityEdit(ed) || w.applyEdit(ed) != nil {
		w.stats.EditsRefused++
		w.editCorrection(p, e.Kind, e.EntityID)
		return
	}
	w.stats.EditsAccepted++
}

// editable returns the entity's current rev and whether it is shown to p.
func (w *World) editable(p *Player, kind uint8, id uint32) (rev uint32, shown bool) {
	switch kind {
	case wire.EditPickup:
		if pk := w.pickups[id]; pk != nil && p.PickupShown(id) {
			return pk.rev, true
		}
	case wire.EditZone:
		if z := w.GangZone(id); z != nil && p.GangZoneShown(id) {
			return z.rev, true
		}
	case wire.EditColshape:
		if c := w.Colshape(id); c != nil && p.ColshapeShown(id) {
			return c.rev, true
		}
	case wire.EditObject:
		if o := w.Object(id); o != nil && w.StreamedTo(KindObject, id, p) {
			return o.rev, true
		}
	}
	return 0, false
}

// applyEdit changes the entity through its setter: a new rev, shown to
// every viewer.
func (w *World) applyEdit(e Edit) error {
	switch e.Kind {
	case wire.EditPickup:
		return w.MovePickup(e.ID, e.A)
	case wire.EditZone:
		zp := w.GangZone(e.ID).Params()
		zp.Min, zp.Max = [2]float32{e.A.X, e.A.Y}, [2]float32{e.B.X, e.B.Y}
		return w.SetGangZone(e.ID, zp)
	case wire.EditColshape:
		cp := w.Colshape(e.ID).Params()
		cp.A, cp.B = e.A, e.B
		return w.SetColshape(e.ID, cp)
	case wire.EditObject:
		return w.SetObjectPose(e.ID, e.A, Rot{X: e.B.X, Y: e.B.Y, Z: e.B.Z})
	}
	return nil
}

// editCorrection sends p the entity's current show, critical.
func (w *World) editCorrection(p *Player, kind uint8, id uint32) {
	switch kind {
	case wire.EditPickup:
		w.send(p, w.pickups[id].show(), lane.Critical)
	case wire.EditZone:
		var s wire.GangZone
		w.GangZone(id).fill(&s)
		w.send(p, &s, lane.Critical)
	case wire.EditColshape:
		var s wire.ColshapeShape
		w.Colshape(id).fill(&s)
		w.send(p, &s, lane.Critical)
	case wire.EditObject:
		var s wire.ObjectState
		w.fillObject(w.Object(id), &s)
		w.send(p, &s, lane.Critical)
	}
}
