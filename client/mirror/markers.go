package mirror

import (
	"cmp"
	"slices"

	"dlmp/internal/wire"
)

// Labels, checkpoints and blips (world.md Label3D, Checkpoint, Blip), held
// with the shared active contract. A label attached to an entity the client
// is not shown is not drawn, and the client itself hides a label farther
// than its draw_distance from the local player (VisibleLabels). An attached
// label's offset is added in world axes: the wire carries only the offset,
// and a label is text that faces the camera. An attached blip follows its
// entity while the entity is shown to the client; otherwise it stands at
// the packet's x, y, z, where the server last saw the entity.

// Label is a held 3D text label.
type Label struct {
	ID           uint32
	Color        uint32 // 0xRRGGBB
	Pos          Vec3   // the position; when attached, the offset from the entity
	DrawDistance float64
	AttachKind   uint8 // wire.AttachNone, AttachPlayer or AttachVehicle
	AttachID     uint32
	Text         string
}

// LabelView is a label to draw, at its world position.
type LabelView struct {
	Label
	World Vec3
}

func labelOf(p *wire.Label3D) Label {
	return Label{
		ID: p.LabelID, Color: p.Color, Pos: vec32(p.X, p.Y, p.Z),
		DrawDistance: float64(p.DrawDistance), AttachKind: p.AttachKind,
		AttachID: p.AttachID, Text: p.TextString(),
	}
}

// Labels returns every held label, by id, drawn or not.
func (m *Mirror) Labels() []Label {
	out := make([]Label, 0, len(m.labels))
	for _, p := range m.labels {
		out = append(out, labelOf(p))
	}
	slices.SortFunc(out, func(a, b Label) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// VisibleLabels appends to dst the labels the client draws for a local
// player at from, by id: each at its world position (an attached label at
// its shown entity plus the offset), within its draw_distance of from.
func (m *Mirror) VisibleLabels(dst []LabelView, from Vec3) []LabelView {
	n := len(dst)
	for _, p := range m.labels {
		at := vec32(p.X, p.Y, p.Z)
		if p.AttachKind != wire.AttachNone {
			e, ok := m.entityPose(p.AttachKind, p.AttachID)
			if !ok {
				continue
			}
			at = e.Pos.Add(at)
		}
		d := float64(p.DrawDistance)
		if at.Dist2(from) > d*d {
			continue
		}
		dst = append(dst, LabelView{Label: labelOf(p), World: at})
	}
	slices.SortFunc(dst[n:], func(a, b LabelView) int { return cmp.Compare(a.ID, b.ID) })
	return dst
}

// Checkpoint is a held checkpoint.
type Checkpoint struct {
	ID     uint32
	Kind   uint8 // 0 normal, 1 race, 2 race_finish, 3 air, 4 air_finish
	Pos    Vec3
	Next   Vec3 // where it points; equal to Pos when there is no next point
	Radius float64
	Color  uint32 // 0xRRGGBB
}

// Checkpoints returns the local player's checkpoints, by id.
func (m *Mirror) Checkpoints() []Checkpoint {
	out := make([]Checkpoint, 0, len(m.checkpts))
	for _, p := range m.checkpts {
		out = append(out, Checkpoint{
			ID: p.CheckpointID, Kind: p.Kind, Pos: vec32(p.X, p.Y, p.Z),
			Next: vec32(p.NextX, p.NextY, p.NextZ), Radius: float64(p.Radius), Color: p.Color,
		})
	}
	slices.SortFunc(out, func(a, b Checkpoint) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// Blip is a held radar blip, at the position the client draws it.
type Blip struct {
	ID         uint32
	Sprite     uint8  // 1..63, 0 = a dot in Color
	Color      uint32 // 0xRRGGBB
	Pos        Vec3   // where the client draws it now
	Following  bool   // attached and following its shown entity
	AttachKind uint8
	AttachID   uint32
	Size       float64
	Flags      uint8 // bit 0 pulses on the pause map, bit 1 short range
}

// Blips returns every held blip, by id, at the position the client draws
// it.
func (m *Mirror) Blips() []Blip {
	out := make([]Blip, 0, len(m.blips))
	for _, p := range m.blips {
		b := Blip{
			ID: p.BlipID, Sprite: p.Sprite, Color: p.Color, Pos: vec32(p.X, p.Y, p.Z),
			AttachKind: p.AttachKind, AttachID: p.AttachID, Size: float64(p.Size), Flags: p.Flags,
		}
		if p.AttachKind != wire.AttachNone {
			if e, ok := m.entityPose(p.AttachKind, p.AttachID); ok {
				b.Pos, b.Following = e.Pos, true
			}
		}
		out = append(out, b)
	}
	slices.SortFunc(out, func(a, b Blip) int { return cmp.Compare(a.ID, b.ID) })
	return out
}
