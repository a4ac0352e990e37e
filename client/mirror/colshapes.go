package mirror

import (
	"cmp"
	"slices"

	"dlmp/internal/wire"
)

// Colshape outlines and the edit session (world.md ColshapeShape,
// docs/protocol.md EditState). The client holds every outline shown to it
// but draws one only while an edit session covers it: EditState open with
// the colshapes bit, for every colshape (entity_id 0) or that one. A new
// EditState replaces the previous session.

// Colshape is a held colshape outline.
type Colshape struct {
	ID   uint32
	Form uint8 // wire.FormSphere, FormCylinder or FormBox
	A, B Vec3  // as ColshapeShape: sphere center, radius; cylinder base center, (radius, height); box min, max
	Rev  uint32
}

// EditSession is the local player's edit session.
type EditSession struct {
	Open     bool
	Kinds    uint8  // wire.EditPickups | EditZones | EditColshapes | EditObjects
	EntityID uint32 // 0 = every entity of those kinds; else the one entity
}

// Covers reports whether the session lets the player edit entity id of the
// kind bit (wire.EditPickups, ...).
func (s EditSession) Covers(kind uint8, id uint32) bool {
	return s.Open && s.Kinds&kind != 0 && (s.EntityID == 0 || s.EntityID == id)
}

// Edit returns the current edit session.
func (m *Mirror) Edit() EditSession {
	if m.edit.Active != 1 {
		return EditSession{}
	}
	return EditSession{Open: true, Kinds: m.edit.Kinds, EntityID: m.edit.EntityID}
}

func colshapeOf(p *wire.ColshapeShape) Colshape {
	return Colshape{
		ID: p.ColshapeID, Form: p.Form,
		A: vec32(p.AX, p.AY, p.AZ), B: vec32(p.BX, p.BY, p.BZ), Rev: p.Rev,
	}
}

// Colshapes returns every held outline, by id, drawn or not.
func (m *Mirror) Colshapes() []Colshape { return m.colshapeList(false) }

// Outlines returns the outlines the client draws now, by id: those the
// edit session covers, none outside a session.
func (m *Mirror) Outlines() []Colshape { return m.colshapeList(true) }

func (m *Mirror) colshapeList(drawn bool) []Colshape {
	s := m.Edit()
	if drawn && !s.Open {
		return nil
	}
	var out []Colshape
	for id, p := range m.colshapes {
		if !drawn || s.Covers(wire.EditColshapes, id) {
			out = append(out, colshapeOf(p))
		}
	}
	slices.SortFunc(out, func(a, b Colshape) int { return cmp.Compare(a.ID, b.ID) })
	return out
}
