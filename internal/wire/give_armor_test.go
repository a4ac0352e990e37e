package wire

import "testing"

func validGiveArmor() Packet { return &GiveArmor{EventID: 9, Amount: 25} }

func TestGiveArmorExample(t *testing.T) {
	checkExample(t, "give_armor.bin", validGiveArmor())
	checkTruncated(t, validGiveArmor().Append(nil), func() Packet { return new(GiveArmor) })
}

func TestGiveArmorRules(t *testing.T) {
	cases := []ruleCase{
		{"amount 1", func(q Packet) { p := q.(*GiveArmor); p.Amount = 1 }, ""},
		{"amount 0", func(q Packet) { p := q.(*GiveArmor); p.Amount = 0 }, "amount"},
		{"amount 100", func(q Packet) { p := q.(*GiveArmor); p.Amount = 100 }, ""},
		{"amount 101", func(q Packet) { p := q.(*GiveArmor); p.Amount = 101 }, "amount"},
	}
	checkRules(t, "server", validGiveArmor, send, cases)
	checkRules(t, "client", validGiveArmor, recv, cases)
}

func FuzzGiveArmor(f *testing.F) {
	f.Add(validGiveArmor().Append(nil))
	f.Add(make([]byte, validGiveArmor().Len()))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(GiveArmor) }) })
}

func BenchmarkGiveArmor(b *testing.B) {
	benchCodec(b, validGiveArmor(), func() Packet { return new(GiveArmor) })
}
