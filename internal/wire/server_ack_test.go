package wire

import "testing"

func validServerAck() Packet { return &ServerAck{Ack: 1234} }

func TestServerAckExample(t *testing.T) {
	checkExample(t, "server_ack.bin", validServerAck())
	checkTruncated(t, validServerAck().Append(nil), func() Packet { return new(ServerAck) })
}

func TestServerAckRules(t *testing.T) {
	// Every value is legal on the wire: these boundaries must all be accepted.
	cases := []ruleCase{
		{"ack 0", func(p Packet) { p.(*ServerAck).Ack = 0 }, ""},
		{"ack max", func(p Packet) { p.(*ServerAck).Ack = 1<<32 - 1 }, ""},
	}
	checkRules(t, "server", validServerAck, send, cases)
	checkRules(t, "client", validServerAck, recv, cases)
}

func FuzzServerAck(f *testing.F) {
	f.Add(validServerAck().Append(nil))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(ServerAck) }) })
}

func BenchmarkServerAck(b *testing.B) {
	benchCodec(b, validServerAck(), func() Packet { return new(ServerAck) })
}
