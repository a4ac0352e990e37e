package mirror

import (
	"slices"
	"testing"

	"dlmp/internal/wire"
)

func sphere(id uint32, r float32) *wire.ColshapeShape {
	return &wire.ColshapeShape{ColshapeID: id, Active: 1, Form: wire.FormSphere, AX: 1, AY: 2, AZ: 3, BX: r, Rev: 1}
}

func TestOutlines(t *testing.T) {
	tests := []struct {
		name string
		edit *wire.EditState // nil: no session
		want []uint32
	}{
		{"no session: nothing drawn", nil, nil},
		{"a session over every colshape", &wire.EditState{Active: 1, Kinds: wire.EditColshapes}, []uint32{1, 2}},
		{"a session over one colshape", &wire.EditState{Active: 1, Kinds: wire.EditColshapes, EntityID: 2}, []uint32{2}},
		{"a session over other kinds", &wire.EditState{Active: 1, Kinds: wire.EditObjects | wire.EditZones}, nil},
		{"a session over every kind", &wire.EditState{Active: 1, Kinds: wire.EditAllKinds}, []uint32{1, 2}},
		{"a closed session", &wire.EditState{Active: 0, Kinds: wire.EditColshapes}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMirror(t, frozenHello())
			apply(t, m, sphere(2, 5), at(0))
			apply(t, m, sphere(1, 5), at(0))
			apply(t, m, sphere(3, 5), at(0))
			apply(t, m, &wire.ColshapeShape{ColshapeID: 3}, at(0))
			if tt.edit != nil {
				apply(t, m, tt.edit, at(0))
			}
			var got []uint32
			for _, c := range m.Outlines() {
				got = append(got, c.ID)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Outlines() = %v, want %v", got, tt.want)
			}
			if n := len(m.Colshapes()); n != 2 {
				t.Errorf("Colshapes() holds %d, want 2 drawn or not", n)
			}
		})
	}
}

func TestEditSessionReplaced(t *testing.T) {
	m := newMirror(t, frozenHello())
	apply(t, m, sphere(1, 5), at(0))
	apply(t, m, &wire.EditState{Active: 1, Kinds: wire.EditColshapes}, at(0))
	apply(t, m, &wire.EditState{Active: 1, Kinds: wire.EditPickups, EntityID: 8}, at(1))
	if got := m.Outlines(); len(got) != 0 {
		t.Errorf("Outlines() after a new session without colshapes = %+v, want none", got)
	}
	s := m.Edit()
	if !s.Covers(wire.EditPickups, 8) || s.Covers(wire.EditPickups, 9) || s.Covers(wire.EditColshapes, 1) {
		t.Errorf("Edit() = %+v: covers the wrong entities", s)
	}
	apply(t, m, &wire.EditState{}, at(2))
	if s := m.Edit(); s.Open || s.Covers(wire.EditPickups, 8) {
		t.Errorf("Edit() after closing = %+v, want closed", s)
	}
}
