package wire

import "testing"

func validClientHello() Packet {
	p := &ClientHello{Magic: ProtocolMagic, Version: ProtocolVersion, ClientNonce: 0x1122334455667788}
	for i := range p.Cookie {
		p.Cookie[i] = byte(i + 1)
	}
	return p
}

func TestClientHelloExample(t *testing.T) {
	checkExample(t, "client_hello.bin", validClientHello())
	checkTruncated(t, validClientHello().Append(nil), func() Packet { return new(ClientHello) })
}

func TestClientHelloRules(t *testing.T) {
	cases := []ruleCase{
		{"magic DLMP", func(p Packet) { p.(*ClientHello).Magic = 0x504D4C44 }, ""},
		{"magic off by one", func(p Packet) { p.(*ClientHello).Magic = 0x504D4C45 }, "magic"},
		{"other version answered, not dropped", func(p Packet) { p.(*ClientHello).Version = 2 }, ""},
		{"zero cookie", func(p Packet) { p.(*ClientHello).Cookie = [CookieLen]byte{} }, ""},
		{"nonce 1", func(p Packet) { p.(*ClientHello).ClientNonce = 1 }, ""},
		{"nonce 0", func(p Packet) { p.(*ClientHello).ClientNonce = 0 }, "client_nonce"},
		{"padding first byte", func(p Packet) { p.(*ClientHello).Padding[0] = 1 }, "padding"},
		{"padding last byte", func(p Packet) { p.(*ClientHello).Padding[ClientHelloPadLen-1] = 0x80 }, "padding"},
	}
	checkRules(t, "client", validClientHello, send, cases)
	checkRules(t, "server", validClientHello, recv, cases)
}

// TestClientHelloNoAmplification checks the rule the padding exists for:
// every answer the server gives before the address is validated is smaller.
func TestClientHelloNoAmplification(t *testing.T) {
	for _, p := range []Packet{new(HelloRetry), new(Disconnect)} {
		if p.Len() >= ClientHelloLen {
			t.Errorf("%s is %d bytes, want below ClientHello's %d", p.Name(), p.Len(), ClientHelloLen)
		}
	}
	if got := len(validClientHello().Append(nil)); got != MaxDatagram {
		t.Errorf("ClientHello encodes to %d bytes, want the datagram budget %d", got, MaxDatagram)
	}
}

func FuzzClientHello(f *testing.F) {
	f.Add(validClientHello().Append(nil))
	f.Add(make([]byte, ClientHelloLen))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(ClientHello) }) })
}

func BenchmarkClientHello(b *testing.B) {
	benchCodec(b, validClientHello(), func() Packet { return new(ClientHello) })
}
