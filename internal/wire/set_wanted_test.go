package wire

import "testing"

func validSetWanted() Packet { return &SetWanted{EventID: 7, Level: 2} }

func TestSetWantedExample(t *testing.T) {
	checkExample(t, "set_wanted.bin", validSetWanted())
	checkTruncated(t, validSetWanted().Append(nil), func() Packet { return new(SetWanted) })
}

func TestSetWantedRules(t *testing.T) {
	cases := []ruleCase{
		{"level 0", func(q Packet) { p := q.(*SetWanted); p.Level = 0 }, ""},
		{"level 6", func(q Packet) { p := q.(*SetWanted); p.Level = 6 }, ""},
		{"level 7", func(q Packet) { p := q.(*SetWanted); p.Level = 7 }, "level"},
		{"level 255", func(q Packet) { p := q.(*SetWanted); p.Level = 255 }, "level"},
	}
	checkRules(t, "server", validSetWanted, send, cases)
	checkRules(t, "client", validSetWanted, recv, cases)
}

func FuzzSetWanted(f *testing.F) {
	f.Add(validSetWanted().Append(nil))
	f.Add(make([]byte, validSetWanted().Len()))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(SetWanted) }) })
}

func BenchmarkSetWanted(b *testing.B) {
	benchCodec(b, validSetWanted(), func() Packet { return new(SetWanted) })
}
