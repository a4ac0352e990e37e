package wire

import "testing"

func validServerKeepalive() Packet { return &ServerKeepalive{Echo: 123456} }

func TestServerKeepaliveExample(t *testing.T) {
	checkExample(t, "server_keepalive.bin", validServerKeepalive())
	checkTruncated(t, validServerKeepalive().Append(nil), func() Packet { return new(ServerKeepalive) })
}

func TestServerKeepaliveRules(t *testing.T) {
	cases := []ruleCase{
		{"unprompted", func(p Packet) { p.(*ServerKeepalive).Echo = 0 }, ""},
		{"echo max", func(p Packet) { p.(*ServerKeepalive).Echo = 0xFFFFFFFF }, ""},
	}
	checkRules(t, "server", validServerKeepalive, send, cases)
	checkRules(t, "client", validServerKeepalive, recv, cases)
}

func FuzzServerKeepalive(f *testing.F) {
	f.Add(validServerKeepalive().Append(nil))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(ServerKeepalive) }) })
}

func BenchmarkServerKeepalive(b *testing.B) {
	benchCodec(b, validServerKeepalive(), func() Packet { return new(ServerKeepalive) })
}
