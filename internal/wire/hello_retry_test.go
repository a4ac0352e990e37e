package wire

import "testing"

func validHelloRetry() Packet {
	p := &HelloRetry{ClientNonce: 0x1122334455667788}
	for i := range p.Cookie {
		p.Cookie[i] = byte(0xA0 + i)
	}
	return p
}

func TestHelloRetryExample(t *testing.T) {
	checkExample(t, "hello_retry.bin", validHelloRetry())
	checkTruncated(t, validHelloRetry().Append(nil), func() Packet { return new(HelloRetry) })
}

func TestHelloRetryRules(t *testing.T) {
	cases := []ruleCase{
		{"nonce 1", func(p Packet) { p.(*HelloRetry).ClientNonce = 1 }, ""},
		{"nonce 0", func(p Packet) { p.(*HelloRetry).ClientNonce = 0 }, "client_nonce"},
		{"cookie one bit", func(p Packet) { p.(*HelloRetry).Cookie = [CookieLen]byte{19: 1} }, ""},
		{"cookie zero", func(p Packet) { p.(*HelloRetry).Cookie = [CookieLen]byte{} }, "cookie"},
	}
	checkRules(t, "server", validHelloRetry, send, cases)
	checkRules(t, "client", validHelloRetry, recv, cases)
}

func FuzzHelloRetry(f *testing.F) {
	f.Add(validHelloRetry().Append(nil))
	f.Add(make([]byte, HelloRetryLen))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(HelloRetry) }) })
}

func BenchmarkHelloRetry(b *testing.B) {
	benchCodec(b, validHelloRetry(), func() Packet { return new(HelloRetry) })
}
