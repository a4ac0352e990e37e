package wire

import "testing"

func validClientKeepalive() Packet { return &ClientKeepalive{Token: 0x0123456789ABCDEF, Ping: 123456} }

func TestClientKeepaliveExample(t *testing.T) {
	checkExample(t, "client_keepalive.bin", validClientKeepalive())
	checkTruncated(t, validClientKeepalive().Append(nil), func() Packet { return new(ClientKeepalive) })
}

func TestClientKeepaliveRules(t *testing.T) {
	cases := []ruleCase{
		{"token 1", func(p Packet) { p.(*ClientKeepalive).Token = 1 }, ""},
		{"token 0", func(p Packet) { p.(*ClientKeepalive).Token = 0 }, "token"},
		{"ping wraps", func(p Packet) { p.(*ClientKeepalive).Ping = 0xFFFFFFFF }, ""},
	}
	checkRules(t, "client", validClientKeepalive, send, cases)
	checkRules(t, "server", validClientKeepalive, recv, cases)
}

func FuzzClientKeepalive(f *testing.F) {
	f.Add(validClientKeepalive().Append(nil))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(ClientKeepalive) }) })
}

func BenchmarkClientKeepalive(b *testing.B) {
	benchCodec(b, validClientKeepalive(), func() Packet { return new(ClientKeepalive) })
}
