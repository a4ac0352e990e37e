package mirror

import (
	"slices"
	"testing"

	"dlmp/internal/wire"
)

func showPickup(id uint32, x, y, z, scale float32) *wire.PickupSync {
	return &wire.PickupSync{PickupID: id, Active: 1, Model: 1240, X: x, Y: y, Z: z, Scale: scale, Highlight: 1, Rev: 1}
}

func TestPickupPlacement(t *testing.T) {
	tests := []struct {
		name    string
		shows   []*wire.PickupSync
		want    []Pickup // held afterwards
		refused uint64
	}{
		{"placed at 1/8 m, rounding to the nearest step",
			[]*wire.PickupSync{showPickup(1, 1.06, -1.07, 10.0625, 1)},
			[]Pickup{{ID: 1, Model: 1240, Steps: [3]int16{8, -9, 81}, Scale: 1, Highlight: true, Rev: 1}}, 0},
		{"a show of a shown pickup replaces it",
			[]*wire.PickupSync{showPickup(1, 0, 0, 0, 1), func() *wire.PickupSync {
				p := showPickup(1, 100, 200, 3, 2)
				p.Model, p.Highlight, p.Rev = 356, 0, 2
				return p
			}()},
			[]Pickup{{ID: 1, Model: 356, Steps: [3]int16{800, 1600, 24}, Scale: 2, Highlight: false, Rev: 2}}, 0},
		{"a hide removes it",
			[]*wire.PickupSync{showPickup(1, 0, 0, 0, 1), showPickup(2, 0, 0, 0, 1), {PickupID: 1}},
			[]Pickup{{ID: 2, Model: 1240, Scale: 1, Highlight: true, Rev: 1}}, 0},
		{"a model that is not an object model is not placed",
			[]*wire.PickupSync{func() *wire.PickupSync { p := showPickup(1, 0, 0, 0, 1); p.Model = 411; return p }()},
			[]Pickup{}, 1},
		{"a refused show removes the copy it would replace",
			[]*wire.PickupSync{showPickup(1, 0, 0, 0, 1), func() *wire.PickupSync { p := showPickup(1, 5, 0, 0, 1); p.Model = 0; return p }()},
			[]Pickup{}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMirror(t, frozenHello())
			for _, p := range tt.shows {
				apply(t, m, p, at(0))
			}
			if got := m.Pickups(); !slices.Equal(got, tt.want) {
				t.Errorf("Pickups() = %+v, want %+v", got, tt.want)
			}
			if got := m.Stats().PickupsRefused; got != tt.refused {
				t.Errorf("PickupsRefused = %d, want %d", got, tt.refused)
			}
		})
	}
}

func TestPickupPos(t *testing.T) {
	p := Pickup{Steps: [3]int16{8, -9, 81}}
	checkVec(t, "Pos()", p.Pos(), Vec3{1, -1.125, 10.125})
}

func TestTouches(t *testing.T) {
	type step struct {
		ms   int
		pkt  wire.Packet // applied first, if any
		pos  Vec3
		want []uint32
	}
	tests := []struct {
		name    string
		spawned bool
		steps   []step
	}{
		{"nothing before the first spawn", false, []step{
			{0, showPickup(1, 0, 0, 0, 1), Vec3{}, nil},
		}},
		{"entry, retries while inside, none once outside", true, []step{
			{0, showPickup(1, 0, 0, 0, 1), Vec3{10, 0, 0}, nil},
			{100, nil, Vec3{1.5, 0, 0}, []uint32{1}},
			{600, nil, Vec3{1, 0, 0}, nil},
			{1099, nil, Vec3{1, 0, 0}, nil},
			{1100, nil, Vec3{1, 0, 0}, []uint32{1}},
			{1200, nil, Vec3{1.6, 0, 0}, nil},
			{1300, nil, Vec3{0, 0, 1.4}, []uint32{1}}, // a new entry reports at once
		}},
		{"the radius is 1.5 m, in 3D, to the placed position", true, []step{
			{0, showPickup(1, 0, 0, 0.07, 1), Vec3{0, 0, 1.6}, []uint32{1}}, // placed at z 0.125
			{10, showPickup(2, 100, 0, 0, 1), Vec3{101, 1, 0.6}, nil},       // 1.54 m away
		}},
		{"the radius grows with a scale above 1, not below", true, []step{
			{0, showPickup(1, 0, 0, 0, 2), Vec3{2.9, 0, 0}, []uint32{1}},
			{0, showPickup(2, 100, 0, 0, 0.5), Vec3{101.4, 0, 0}, []uint32{2}},
		}},
		{"a removed pickup is not touched", true, []step{
			{0, showPickup(1, 0, 0, 0, 1), Vec3{}, []uint32{1}},
			{2000, &wire.PickupSync{PickupID: 1}, Vec3{}, nil},
		}},
		{"several pickups come in id order", true, []step{
			{0, showPickup(9, 0, 0, 0, 1), Vec3{20, 0, 0}, nil},
			{0, showPickup(3, 1, 0, 0, 1), Vec3{20, 0, 0}, nil},
			{0, showPickup(5, 0, 1, 0, 1), Vec3{}, []uint32{3, 5, 9}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMirror(t, frozenHello())
			if tt.spawned {
				spawn(t, m, 1, Vec3{500, 500, 0}, 0, at(0))
			}
			for _, s := range tt.steps {
				if s.pkt != nil {
					apply(t, m, s.pkt, at(s.ms))
				}
				if got := m.Touches(nil, s.pos, at(s.ms)); !slices.Equal(got, s.want) {
					t.Errorf("at %d ms from %+v: Touches = %v, want %v", s.ms, s.pos, got, s.want)
				}
			}
		})
	}
}
