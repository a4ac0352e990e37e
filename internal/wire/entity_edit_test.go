package wire

import (
	"math"
	"testing"
)

func validEntityEdit() Packet {
	return &EntityEdit{Token: 0x0123456789ABCDEF, EventID: 4, Kind: EditPickup, EntityID: 33, Rev: 2, AX: 2490.5, AY: -1690, AZ: 13.5}
}

func TestEntityEditExample(t *testing.T) {
	checkExample(t, "entity_edit.bin", validEntityEdit())
	checkTruncated(t, validEntityEdit().Append(nil), func() Packet { return new(EntityEdit) })
}

func TestEntityEditRules(t *testing.T) {
	nan := float32(math.NaN())
	cases := []ruleCase{
		{"token 0", func(q Packet) { p := q.(*EntityEdit); p.Token = 0 }, "token"},
		{"kind 4", func(q Packet) { p := q.(*EntityEdit); p.Kind = 4 }, "kind"},
		{"a_z NaN", func(q Packet) { p := q.(*EntityEdit); p.AZ = nan }, "a_z"},
		{"b_y inf", func(q Packet) { p := q.(*EntityEdit); p.BY = float32(math.Inf(-1)) }, "b_y"},
		{"pickup x 4095", func(q Packet) { p := q.(*EntityEdit); p.AX = 4095 }, ""},
		{"pickup x 4095.5", func(q Packet) { p := q.(*EntityEdit); p.AX = 4095.5 }, "a_x"},
		{"pickup y -4095", func(q Packet) { p := q.(*EntityEdit); p.AY = -4095 }, ""},
		{"pickup y -4095.5", func(q Packet) { p := q.(*EntityEdit); p.AY = -4095.5 }, "a_y"},
		{"pickup z -200", func(q Packet) { p := q.(*EntityEdit); p.AZ = -200 }, ""},
		{"pickup z -200.5", func(q Packet) { p := q.(*EntityEdit); p.AZ = -200.5 }, "a_z"},
		{"pickup z 4000.5", func(q Packet) { p := q.(*EntityEdit); p.AZ = 4000.5 }, "a_z"},
		{"pickup b nonzero", func(q Packet) { p := q.(*EntityEdit); p.BZ = 1 }, "b_z"},
		{"zone", func(q Packet) {
			p := q.(*EntityEdit)
			p.Kind, p.AX, p.AY, p.AZ, p.BX, p.BY, p.BZ = EditZone, -100, -100, 0, 100, 100, 0
		}, ""},
		{"zone at the bounds", func(q Packet) {
			p := q.(*EntityEdit)
			p.Kind, p.AX, p.AY, p.AZ, p.BX, p.BY, p.BZ = EditZone, -100, -100, 0, 100, 100, 0
			p.AX, p.BY = -6000, 6000
		}, ""},
		{"zone past the bounds", func(q Packet) {
			p := q.(*EntityEdit)
			p.Kind, p.AX, p.AY, p.AZ, p.BX, p.BY, p.BZ = EditZone, -100, -100, 0, 100, 100, 0
			p.BX = 6000.5
		}, "b_x"},
		{"zone a_z", func(q Packet) {
			p := q.(*EntityEdit)
			p.Kind, p.AX, p.AY, p.AZ, p.BX, p.BY, p.BZ = EditZone, -100, -100, 0, 100, 100, 0
			p.AZ = 1
		}, "a_z"},
		{"zone degenerate x", func(q Packet) {
			p := q.(*EntityEdit)
			p.Kind, p.AX, p.AY, p.AZ, p.BX, p.BY, p.BZ = EditZone, -100, -100, 0, 100, 100, 0
			p.BX = p.AX
		}, "b_x"},
		{"zone degenerate y", func(q Packet) {
			p := q.(*EntityEdit)
			p.Kind, p.AX, p.AY, p.AZ, p.BX, p.BY, p.BZ = EditZone, -100, -100, 0, 100, 100, 0
			p.BY = p.AY - 1
		}, "b_y"},
		{"colshape", func(q Packet) {
			p := q.(*EntityEdit)
			p.Kind, p.AX, p.AY, p.AZ, p.BX, p.BY, p.BZ = EditColshape, 10, 20, 30, 5, 0, 0
		}, ""},
		{"colshape a past the bounds", func(q Packet) {
			p := q.(*EntityEdit)
			p.Kind, p.AX, p.AY, p.AZ, p.BX, p.BY, p.BZ = EditColshape, 10, 20, 30, 5, 0, 0
			p.AY = -6000.5
		}, "a_y"},
		{"colshape b 12000", func(q Packet) {
			p := q.(*EntityEdit)
			p.Kind, p.AX, p.AY, p.AZ, p.BX, p.BY, p.BZ = EditColshape, 10, 20, 30, 5, 0, 0
			p.BX = 12000
		}, ""},
		{"colshape b 12000.5", func(q Packet) {
			p := q.(*EntityEdit)
			p.Kind, p.AX, p.AY, p.AZ, p.BX, p.BY, p.BZ = EditColshape, 10, 20, 30, 5, 0, 0
			p.BY = 12000.5
		}, "b_y"},
		{"object", func(q Packet) {
			p := q.(*EntityEdit)
			p.Kind, p.AX, p.AY, p.AZ, p.BX, p.BY, p.BZ = EditObject, 10, 20, 30, 0, 0, 90
		}, ""},
		{"object rotation 3600", func(q Packet) {
			p := q.(*EntityEdit)
			p.Kind, p.AX, p.AY, p.AZ, p.BX, p.BY, p.BZ = EditObject, 10, 20, 30, 0, 0, 90
			p.BX = -3600
		}, ""},
		{"object rotation 3600.5", func(q Packet) {
			p := q.(*EntityEdit)
			p.Kind, p.AX, p.AY, p.AZ, p.BX, p.BY, p.BZ = EditObject, 10, 20, 30, 0, 0, 90
			p.BZ = 3600.5
		}, "b_z"},
		{"object z 4000.5", func(q Packet) {
			p := q.(*EntityEdit)
			p.Kind, p.AX, p.AY, p.AZ, p.BX, p.BY, p.BZ = EditObject, 10, 20, 30, 0, 0, 90
			p.AZ = 4000.5
		}, "a_z"},
		{"object x 6000 is past a pickup but in the world", func(q Packet) {
			p := q.(*EntityEdit)
			p.Kind, p.AX, p.AY, p.AZ, p.BX, p.BY, p.BZ = EditObject, 10, 20, 30, 0, 0, 90
			p.AX = 6000
		}, ""},
	}
	checkRules(t, "client", validEntityEdit, send, cases)
	checkRules(t, "server", validEntityEdit, recv, cases)
}

func FuzzEntityEdit(f *testing.F) {
	f.Add(validEntityEdit().Append(nil))
	f.Add(make([]byte, validEntityEdit().Len()))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(EntityEdit) }) })
}

func BenchmarkEntityEdit(b *testing.B) {
	benchCodec(b, validEntityEdit(), func() Packet { return new(EntityEdit) })
}
