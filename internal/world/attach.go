package world

import (
	"slices"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
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

// addLabelOn records l, attached, among the labels on its entity: by player
// id in the dense table of labels on players (playerLabels: a crowd's name
// labels are read for every player shown on every label pass), in the map
// for vehicles.
func (w *World) addLabelOn(l *Label) {
	if id, ok := labelPlayer(l); ok {
		w.addSlot(l, id)
		return
	}
	k := attachKey{l.params.AttachKind, l.params.AttachID}
	w.prims.labelsOn[k] = append(w.prims.labelsOn[k], l)
}

// removeLabelOn forgets l, attached, among the labels on its entity.
func (w *World) removeLabelOn(l *Label) {
	is := func(x *Label) bool { return x == l }
	if id, ok := labelPlayer(l); ok {
		w.dropSlot(l, id)
		return
	}
	k := attachKey{l.params.AttachKind, l.params.AttachID}
	if on := slices.DeleteFunc(w.prims.labelsOn[k], is); len(on) == 0 {
		delete(w.prims.labelsOn, k)
	} else {
		w.prims.labelsOn[k] = on
	}
}

// labelPlayer returns the player id an attached label is on, if on a player.
func labelPlayer(l *Label) (uint16, bool) {
	if l.params.AttachKind != wire.AttachPlayer || l.params.AttachID > 0xFFFF {
		return 0, false
	}
	return uint16(l.params.AttachID), true
}

// labelsOnShown appends to wants the attached labels p should see: those on
// the players and vehicles p's views show (not on p), that are not another
// player's (Viewer), within their draw distance of p. A reconcile costs
// what p sees rather than every attached label; the labels on players are
// read from the dense tables by player id (their labels, their stream
// center), without a map lookup or the players' structs.
func (w *World) labelsOnShown(p *Player, wants []stream.Want) []stream.Want {
	for _, want := range w.labelsOnShownPlayers(p) {
		wants = append(wants, want)
	}
	if len(w.prims.labelsOn) == 0 {
		return wants
	}
	on := w.prims.onShown[:0] // the labels on the vehicles shown
	for _, id := range p.ent.shownV {
		on = append(on, w.prims.labelsOn[attachKey{wire.AttachVehicle, uint32(id)}]...)
	}
	for _, l := range on {
		if pos, _, ok := w.attachedAt(l.params.AttachKind, l.params.AttachID); ok {
			wants = labelWant(p, l, pos, wants)
		}
	}
	clear(on) // no label kept alive by the scratch
	w.prims.onShown = on[:0]
	return wants
}

// labelWant appends l, attached to an entity at pos, to wants when p
// should see it.
func labelWant(p *Player, l *Label, pos grid.Vec, wants []stream.Want) []stream.Want {
	if l.params.Viewer != nil && l.params.Viewer != p {
		return wants
	}
	at := grid.Vec{X: pos.X + l.params.Pos.X, Y: pos.Y + l.params.Pos.Y, Z: pos.Z + l.params.Pos.Z}
	if d := grid.Dist2(p.pos, at); d <= l.params.DrawDistance*l.params.DrawDistance {
		wants = append(wants, stream.Want{ID: l.id, Rev: l.rev, Dist2: d})
	}
	return wants
}
