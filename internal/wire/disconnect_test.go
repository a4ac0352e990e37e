package wire

import "testing"

func validDisconnect() Packet { return &Disconnect{Token: 0x0123456789ABCDEF, Reason: ReasonKicked} }

func TestDisconnectExample(t *testing.T) {
	checkExample(t, "disconnect.bin", validDisconnect())
	checkTruncated(t, validDisconnect().Append(nil), func() Packet { return new(Disconnect) })
}

func TestDisconnectRules(t *testing.T) {
	cases := []ruleCase{
		{"token 0", func(p Packet) { p.(*Disconnect).Token = 0 }, "token"},
		{"reason 1", func(p Packet) { p.(*Disconnect).Reason = 1 }, ""},
		{"reason 0", func(p Packet) { p.(*Disconnect).Reason = 0 }, "reason"},
		{"reason 10", func(p Packet) { p.(*Disconnect).Reason = 10 }, ""},
		{"reason 11", func(p Packet) { p.(*Disconnect).Reason = 11 }, "reason"},
	}
	checkRules(t, "server", validDisconnect, send, cases)
	checkRules(t, "client", validDisconnect, recv, cases)
}

func FuzzDisconnect(f *testing.F) {
	f.Add(validDisconnect().Append(nil))
	f.Add([]byte{IDDisconnect, 0, 0, 0, 0, 0, 0, 0, 0, 11})
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(Disconnect) }) })
}

func BenchmarkDisconnect(b *testing.B) {
	benchCodec(b, validDisconnect(), func() Packet { return new(Disconnect) })
}
