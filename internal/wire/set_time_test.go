package wire

import "testing"

func validSetTime() Packet { return &SetTime{EventID: 7, Hours: 12, Minutes: 30} }

func TestSetTimeExample(t *testing.T) {
	checkExample(t, "set_time.bin", validSetTime())
	checkTruncated(t, validSetTime().Append(nil), func() Packet { return new(SetTime) })
}

func TestSetTimeRules(t *testing.T) {
	cases := []ruleCase{
		{"hours 23", func(p Packet) { p.(*SetTime).Hours = 23 }, ""},
		{"hours 24", func(p Packet) { p.(*SetTime).Hours = 24 }, "hours"},
		{"hours 0", func(p Packet) { p.(*SetTime).Hours = 0 }, ""},
		{"minutes 59", func(p Packet) { p.(*SetTime).Minutes = 59 }, ""},
		{"minutes 60", func(p Packet) { p.(*SetTime).Minutes = 60 }, "minutes"},
		{"minutes 255", func(p Packet) { p.(*SetTime).Minutes = 255 }, "minutes"},
	}
	checkRules(t, "server", validSetTime, send, cases)
	checkRules(t, "client", validSetTime, recv, cases)
}

func FuzzSetTime(f *testing.F) {
	f.Add(validSetTime().Append(nil))
	f.Add([]byte{IDSetTime, 1, 0, 0, 0, 24, 0})
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(SetTime) }) })
}

func BenchmarkSetTime(b *testing.B) {
	benchCodec(b, validSetTime(), func() Packet { return new(SetTime) })
}
