package wire

import "testing"

func validEditState() Packet {
	return &EditState{EventID: 14, Active: 1, Kinds: EditPickups | EditObjects, EntityID: 0}
}

func TestEditStateExample(t *testing.T) {
	checkExample(t, "edit_state.bin", validEditState())
	checkTruncated(t, validEditState().Append(nil), func() Packet { return new(EditState) })
}

func TestEditStateRules(t *testing.T) {
	cases := []ruleCase{
		{"active 2", func(q Packet) { p := q.(*EditState); p.Active = 2 }, "active"},
		{"closed ignores the rest", func(q Packet) { p := q.(*EditState); p.Active, p.Kinds, p.EntityID = 0, 0xFF, 9 }, ""},
		{"kinds 0", func(q Packet) { p := q.(*EditState); p.Kinds = 0 }, "kinds"},
		{"all kinds", func(q Packet) { p := q.(*EditState); p.Kinds = 0x0F }, ""},
		{"kinds bit 4", func(q Packet) { p := q.(*EditState); p.Kinds = 0x10 }, "kinds"},
		{"kinds bit 7", func(q Packet) { p := q.(*EditState); p.Kinds = 0x81 }, "kinds"},
		{"one entity one kind", func(q Packet) { p := q.(*EditState); p.Kinds, p.EntityID = EditZones, 9 }, ""},
		{"one entity two kinds", func(q Packet) { p := q.(*EditState); p.Kinds, p.EntityID = EditZones|EditObjects, 9 }, "kinds"},
	}
	checkRules(t, "server", validEditState, send, cases)
	checkRules(t, "client", validEditState, recv, cases)
}

func FuzzEditState(f *testing.F) {
	f.Add(validEditState().Append(nil))
	f.Add(make([]byte, validEditState().Len()))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(EditState) }) })
}

func BenchmarkEditState(b *testing.B) {
	benchCodec(b, validEditState(), func() Packet { return new(EditState) })
}
