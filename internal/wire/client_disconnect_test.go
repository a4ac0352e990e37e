package wire

import "testing"

func validClientDisconnect() Packet {
	return &ClientDisconnect{Token: 0x0123456789ABCDEF, Reason: ReasonQuit}
}

func TestClientDisconnectExample(t *testing.T) {
	checkExample(t, "client_disconnect.bin", validClientDisconnect())
	checkTruncated(t, validClientDisconnect().Append(nil), func() Packet { return new(ClientDisconnect) })
}

func TestClientDisconnectRules(t *testing.T) {
	both := []ruleCase{
		{"token 0", func(p Packet) { p.(*ClientDisconnect).Token = 0 }, "token"},
		{"reason 0", func(p Packet) { p.(*ClientDisconnect).Reason = 0 }, "reason"},
		{"reason 1", func(p Packet) { p.(*ClientDisconnect).Reason = 1 }, ""},
		{"reason 4", func(p Packet) { p.(*ClientDisconnect).Reason = 4 }, ""},
		{"reason 10", func(p Packet) { p.(*ClientDisconnect).Reason = 10 }, ""},
		{"reason 11", func(p Packet) { p.(*ClientDisconnect).Reason = 11 }, "reason"},
	}
	checkRules(t, "client", validClientDisconnect, send, append(both,
		ruleCase{"reason 2 is the server's", func(p Packet) { p.(*ClientDisconnect).Reason = 2 }, "reason"},
		ruleCase{"reason 9 is the server's", func(p Packet) { p.(*ClientDisconnect).Reason = 9 }, "reason"},
	))
	checkRules(t, "server", validClientDisconnect, recv, append(both,
		ruleCase{"reason 2 parses", func(p Packet) { p.(*ClientDisconnect).Reason = 2 }, ""},
	))
}

func FuzzClientDisconnect(f *testing.F) {
	f.Add(validClientDisconnect().Append(nil))
	f.Add([]byte{IDClientDisconnect, 1, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRoundTrip(t, data, func() Packet { return new(ClientDisconnect) })
	})
}

func BenchmarkClientDisconnect(b *testing.B) {
	benchCodec(b, validClientDisconnect(), func() Packet { return new(ClientDisconnect) })
}
