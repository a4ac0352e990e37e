package wire

import "testing"

func validNetvarSync() Packet { return &NetvarSync{Token: 0x0123456789ABCDEF, Attempt: 1} }

func TestNetvarSyncExample(t *testing.T) {
	checkExample(t, "netvar_sync.bin", validNetvarSync())
	checkTruncated(t, validNetvarSync().Append(nil), func() Packet { return new(NetvarSync) })
}

func TestNetvarSyncRules(t *testing.T) {
	cases := []ruleCase{
		{"token 0", func(q Packet) { p := q.(*NetvarSync); p.Token = 0 }, "token"},
		{"attempt 0", func(q Packet) { p := q.(*NetvarSync); p.Attempt = 0 }, "attempt"},
		{"attempt 20", func(q Packet) { p := q.(*NetvarSync); p.Attempt = 20 }, ""},
		{"attempt 21", func(q Packet) { p := q.(*NetvarSync); p.Attempt = 21 }, "attempt"},
	}
	checkRules(t, "client", validNetvarSync, send, cases)
	checkRules(t, "server", validNetvarSync, recv, cases)
}

func FuzzNetvarSync(f *testing.F) {
	f.Add(validNetvarSync().Append(nil))
	f.Add(make([]byte, validNetvarSync().Len()))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(NetvarSync) }) })
}

func BenchmarkNetvarSync(b *testing.B) {
	benchCodec(b, validNetvarSync(), func() Packet { return new(NetvarSync) })
}
