package wire

import "testing"

func validGiveHealth() Packet { return &GiveHealth{EventID: 9, Amount: 25} }

func TestGiveHealthExample(t *testing.T) {
	checkExample(t, "give_health.bin", validGiveHealth())
	checkTruncated(t, validGiveHealth().Append(nil), func() Packet { return new(GiveHealth) })
}

func TestGiveHealthRules(t *testing.T) {
	cases := []ruleCase{
		{"amount 1", func(q Packet) { p := q.(*GiveHealth); p.Amount = 1 }, ""},
		{"amount 0", func(q Packet) { p := q.(*GiveHealth); p.Amount = 0 }, "amount"},
		{"amount 100", func(q Packet) { p := q.(*GiveHealth); p.Amount = 100 }, ""},
		{"amount 101", func(q Packet) { p := q.(*GiveHealth); p.Amount = 101 }, "amount"},
	}
	checkRules(t, "server", validGiveHealth, send, cases)
	checkRules(t, "client", validGiveHealth, recv, cases)
}

func FuzzGiveHealth(f *testing.F) {
	f.Add(validGiveHealth().Append(nil))
	f.Add(make([]byte, validGiveHealth().Len()))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(GiveHealth) }) })
}

func BenchmarkGiveHealth(b *testing.B) {
	benchCodec(b, validGiveHealth(), func() Packet { return new(GiveHealth) })
}
