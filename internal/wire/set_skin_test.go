package wire

import "testing"

func validSetSkin() Packet { return &SetSkin{EventID: 6, Skin: 29} }

func TestSetSkinExample(t *testing.T) {
	checkExample(t, "set_skin.bin", validSetSkin())
	checkTruncated(t, validSetSkin().Append(nil), func() Packet { return new(SetSkin) })
}

func TestSetSkinRules(t *testing.T) {
	cases := []ruleCase{
		{"skin 0", func(q Packet) { p := q.(*SetSkin); p.Skin = 0 }, ""},
		{"skin 73", func(q Packet) { p := q.(*SetSkin); p.Skin = 73 }, ""},
		{"skin 74", func(q Packet) { p := q.(*SetSkin); p.Skin = 74 }, "skin"},
		{"skin 311", func(q Packet) { p := q.(*SetSkin); p.Skin = 311 }, ""},
		{"skin 312", func(q Packet) { p := q.(*SetSkin); p.Skin = 312 }, "skin"},
		{"skin 65535", func(q Packet) { p := q.(*SetSkin); p.Skin = 65535 }, "skin"},
	}
	checkRules(t, "server", validSetSkin, send, cases)
	checkRules(t, "client", validSetSkin, recv, cases)
}

func FuzzSetSkin(f *testing.F) {
	f.Add(validSetSkin().Append(nil))
	f.Add(make([]byte, validSetSkin().Len()))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(SetSkin) }) })
}

func BenchmarkSetSkin(b *testing.B) {
	benchCodec(b, validSetSkin(), func() Packet { return new(SetSkin) })
}
