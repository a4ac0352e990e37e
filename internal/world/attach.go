package world

import (
	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// An attached label or blip follows a player or a vehicle (attach_kind 1 or
// 2). These answer, for either kind, where the entity is and whether it is
// streamed to a recipient.

// attachedAt returns where the entity a label or blip is attached to is,
// its scope, and whether it exists with a position.
func (w *World) attachedAt(kind uint8, id uint32) (grid.Vec, grid.Scope, bool) {
	switch kind {
	case wire.AttachPlayer:
		if e := w.Player(uint16(min(id, 0xFFFF))); e != nil && id <= 0xFFFF && e.hasPos {
			return e.pos, e.scope, true
		}
	case wire.AttachVehicle:
		if v := w.Vehicle(uint16(min(id, 0xFFFF))); v != nil && id <= 0xFFFF {
			return v.pos, v.scope, true
		}
	}
	return grid.Vec{}, grid.Scope{}, false
}

// vehicleGone deletes the labels and blips attached to a deleted vehicle.
func (w *World) vehicleGone(id uint16) {
	for _, l := range w.prims.attLabel {
		if l.params.AttachKind == wire.AttachVehicle && l.params.AttachID == uint32(id) {
			w.DeleteLabel(l.id)
		}
	}
	for _, b := range w.prims.attBlip {
		if b.params.AttachKind == wire.AttachVehicle && b.params.AttachID == uint32(id) {
			w.DeleteBlip(b.id)
		}
	}
}

// attachKey names the entity a label is attached to.
type attachKey struct {
	kind uint8
	id   uint32
}

// labelsOnShown appends to dst the attached labels whose entity is
// streamed to p: the labels on the players and vehicles p's views show, so
// a reconcile costs what p sees rather than every attached label.
func (w *World) labelsOnShown(p *Player, dst []*Label) []*Label {
	on := w.prims.labelsOn
	if len(on) == 0 {
		return dst
	}
	for _, id := range p.ent.shownP {
		if id != p.id {
			dst = append(dst, on[attachKey{wire.AttachPlayer, uint32(id)}]...)
		}
	}
	for _, id := range p.ent.shownV {
		dst = append(dst, on[attachKey{wire.AttachVehicle, uint32(id)}]...)
	}
	return dst
}
