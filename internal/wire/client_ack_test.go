package wire

import "testing"

func validClientAck() Packet {
	return &ClientAck{Token: 0x1122334455667788, Ack: 41, Above: 0b1011, DelayMs: 12}
}

func TestClientAckExample(t *testing.T) {
	checkExample(t, "client_ack.bin", validClientAck())
	checkTruncated(t, validClientAck().Append(nil), func() Packet { return new(ClientAck) })
}

func TestClientAckRules(t *testing.T) {
	// Every value is legal on the wire: these boundaries must all be accepted.
	cases := []ruleCase{
		{"ack 0", func(p Packet) { p.(*ClientAck).Ack = 0 }, ""},
		{"ack max", func(p Packet) { p.(*ClientAck).Ack = 1<<32 - 1 }, ""},
		{"above bit 63", func(p Packet) { p.(*ClientAck).Above = 1 << 63 }, ""},
		{"above all", func(p Packet) { p.(*ClientAck).Above = 1<<64 - 1 }, ""},
		{"delay_ms max", func(p Packet) { p.(*ClientAck).DelayMs = 1<<16 - 1 }, ""},
		{"token 0", func(p Packet) { p.(*ClientAck).Token = 0 }, ""},
	}
	checkRules(t, "client", validClientAck, send, cases)
	checkRules(t, "server", validClientAck, recv, cases)
}

func FuzzClientAck(f *testing.F) {
	f.Add(validClientAck().Append(nil))
	f.Add((&ClientAck{Above: 1 << 63, DelayMs: 65535}).Append(nil))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(ClientAck) }) })
}

func BenchmarkClientAck(b *testing.B) {
	benchCodec(b, validClientAck(), func() Packet { return new(ClientAck) })
}
