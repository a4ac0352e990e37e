package mirror

import (
	"slices"
	"testing"

	"dlmp/internal/wire"
)

func label(id uint32, kind uint8, attach uint32, pos Vec3, dist float32, text string) *wire.Label3D {
	p := &wire.Label3D{
		LabelID: id, Active: 1, Color: 0xFFFFFF,
		X: float32(pos.X), Y: float32(pos.Y), Z: float32(pos.Z),
		DrawDistance: dist, AttachKind: kind, AttachID: attach,
	}
	if err := p.SetText(text); err != nil {
		panic(err)
	}
	return p
}

func visibleIDs(m *Mirror, from Vec3) []uint32 {
	var ids []uint32
	for _, l := range m.VisibleLabels(nil, from) {
		ids = append(ids, l.ID)
	}
	return ids
}

func TestVisibleLabels(t *testing.T) {
	const other, car = 3, 12
	tests := []struct {
		name  string
		setup []wire.Packet
		from  Vec3
		want  []uint32
	}{
		{"a free label within its draw distance", []wire.Packet{label(1, 0, 0, Vec3{10, 0, 0}, 20, "a")}, Vec3{}, []uint32{1}},
		{"exactly at its draw distance", []wire.Packet{label(1, 0, 0, Vec3{10, 0, 0}, 20, "a")}, Vec3{30, 0, 0}, []uint32{1}},
		{"past its draw distance, in 3D", []wire.Packet{label(1, 0, 0, Vec3{10, 0, 0}, 20, "a")}, Vec3{30, 0, 1}, nil},
		{"each label has its own distance",
			[]wire.Packet{label(1, 0, 0, Vec3{}, 5, "near"), label(2, 0, 0, Vec3{}, 50, "far")}, Vec3{10, 0, 0}, []uint32{2}},
		{"attached to a player not shown", []wire.Packet{label(1, wire.AttachPlayer, other, Vec3{}, 300, "a")}, Vec3{}, nil},
		{"attached to a shown player without a position yet",
			[]wire.Packet{func() wire.Packet {
				p := &wire.PlayerShow{PlayerID: other, Active: 1}
				copy(p.PlayerName[:], "Other")
				return p
			}(), label(1, wire.AttachPlayer, other, Vec3{}, 300, "a")}, Vec3{}, nil},
		{"attached to a player who was hidden",
			[]wire.Packet{label(1, wire.AttachPlayer, other, Vec3{}, 300, "a"), &wire.PlayerShow{PlayerID: other}}, Vec3{}, nil},
		{"attached to a vehicle not shown", []wire.Packet{label(1, wire.AttachVehicle, car, Vec3{}, 300, "a")}, Vec3{}, nil},
		{"attached to a shown vehicle",
			[]wire.Packet{&wire.VehicleShow{VehicleID: car, Active: 1, Model: 411, X: 50, QW: 1, Health: 1000},
				label(1, wire.AttachVehicle, car, Vec3{0, 0, 1}, 10, "a")}, Vec3{45, 0, 1}, []uint32{1}},
		{"the distance is from the attached entity, not the offset",
			[]wire.Packet{&wire.VehicleShow{VehicleID: car, Active: 1, Model: 411, X: 50, QW: 1, Health: 1000},
				label(1, wire.AttachVehicle, car, Vec3{0, 0, 1}, 10, "a")}, Vec3{0, 0, 1}, nil},
		{"hidden labels go", []wire.Packet{label(1, 0, 0, Vec3{}, 20, "a"), &wire.Label3D{LabelID: 1}}, Vec3{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMirror(t, frozenHello())
			showPlayer(t, m, 40, 1, Vec3{}, 0, at(0)) // an unrelated player
			for _, p := range tt.setup {
				apply(t, m, p, at(0))
			}
			if got := visibleIDs(m, tt.from); !slices.Equal(got, tt.want) {
				t.Errorf("VisibleLabels from %+v = %v, want %v", tt.from, got, tt.want)
			}
		})
	}
}

func TestAttachedLabelFollowsPlayer(t *testing.T) {
	const other = 3
	m := newMirror(t, frozenHello())
	showPlayer(t, m, other, 1, Vec3{100, 0, 5}, 90, at(0))
	apply(t, m, label(1, wire.AttachPlayer, other, Vec3{1, 0, 0.5}, 50, "hello\nworld"), at(0))
	got := m.VisibleLabels(nil, Vec3{100, 0, 5})
	if len(got) != 1 {
		t.Fatalf("VisibleLabels = %+v, want label 1", got)
	}
	// The offset is in world axes: the player's heading does not turn it.
	checkVec(t, "label world position", got[0].World, Vec3{101, 0, 5.5})
	if got[0].Text != "hello\nworld" {
		t.Errorf("label text = %q, want %q", got[0].Text, "hello\nworld")
	}
	movePlayer(t, m, other, 2, Vec3{120, 0, 5}, 90, at(10))
	got = m.VisibleLabels(got[:0], Vec3{100, 0, 5})
	checkVec(t, "label after the player moved", got[0].World, Vec3{121, 0, 5.5})

	// Hidden with its player, but still held until the server hides it.
	apply(t, m, &wire.PlayerShow{PlayerID: other}, at(20))
	if got := m.VisibleLabels(nil, Vec3{100, 0, 5}); len(got) != 0 {
		t.Errorf("VisibleLabels after the player's hide = %+v, want none", got)
	}
	if got := m.Labels(); len(got) != 1 {
		t.Errorf("Labels() after the player's hide holds %d, want 1", len(got))
	}
}

func TestBlips(t *testing.T) {
	const other = 3
	m := newMirror(t, frozenHello())
	apply(t, m, &wire.Blip{BlipID: 1, Active: 1, Sprite: 5, X: 1, Y: 2, Z: 3, Size: 1}, at(0))
	apply(t, m, &wire.Blip{BlipID: 2, Active: 1, X: 10, Y: 20, Z: 30, AttachKind: wire.AttachPlayer, AttachID: other, Size: 1}, at(0))
	check := func(when string, want2 Vec3, following bool) {
		t.Helper()
		b := m.Blips()
		if len(b) != 2 || b[0].ID != 1 || b[1].ID != 2 {
			t.Fatalf("%s: Blips() = %+v, want blips 1 and 2", when, b)
		}
		checkVec(t, when+": free blip", b[0].Pos, Vec3{1, 2, 3})
		checkVec(t, when+": attached blip", b[1].Pos, want2)
		if b[1].Following != following {
			t.Errorf("%s: Following = %v, want %v", when, b[1].Following, following)
		}
	}
	check("player not shown", Vec3{10, 20, 30}, false)
	showPlayer(t, m, other, 1, Vec3{50, 60, 70}, 0, at(1))
	check("player shown", Vec3{50, 60, 70}, true)
	movePlayer(t, m, other, 2, Vec3{55, 60, 70}, 0, at(2))
	check("player moved", Vec3{55, 60, 70}, true)
	apply(t, m, &wire.PlayerShow{PlayerID: other}, at(3))
	check("player hidden", Vec3{10, 20, 30}, false)
	apply(t, m, &wire.Blip{BlipID: 1}, at(4))
	if got := len(m.Blips()); got != 1 {
		t.Errorf("Blips() after a hide holds %d, want 1", got)
	}
}

func TestCheckpoints(t *testing.T) {
	m := newMirror(t, frozenHello())
	cp := &wire.Checkpoint{CheckpointID: 4, Active: 1, Kind: 1, X: 1, Y: 2, Z: 3, NextX: 4, NextY: 5, NextZ: 6, Radius: 5, Color: 0xFF0000}
	apply(t, m, cp, at(0))
	moved := *cp
	moved.X, moved.Radius = 10, 8
	apply(t, m, &moved, at(1))
	want := []Checkpoint{{ID: 4, Kind: 1, Pos: Vec3{10, 2, 3}, Next: Vec3{4, 5, 6}, Radius: 8, Color: 0xFF0000}}
	if got := m.Checkpoints(); !slices.Equal(got, want) {
		t.Errorf("Checkpoints() = %+v, want %+v", got, want)
	}
	apply(t, m, &wire.Checkpoint{CheckpointID: 4}, at(2))
	if got := m.Checkpoints(); len(got) != 0 {
		t.Errorf("Checkpoints() after the hide = %+v, want none", got)
	}
}
