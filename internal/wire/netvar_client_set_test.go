package wire

import (
	"bytes"
	"testing"
)

func validNetvarClientSet() Packet {
	return &NetvarClientSet{Token: 0x0123456789ABCDEF, EventID: 5, Payload: []byte{0x0B, 0x01}}
}

func TestNetvarClientSetExample(t *testing.T) {
	checkExample(t, "netvar_client_set.bin", validNetvarClientSet())
	checkTruncated(t, validNetvarClientSet().Append(nil), func() Packet { return new(NetvarClientSet) })
}

func TestNetvarClientSetRules(t *testing.T) {
	set := func(n int) func(Packet) {
		return func(p Packet) { p.(*NetvarClientSet).Payload = bytes.Repeat([]byte{0x5A}, n) }
	}
	cases := []ruleCase{
		{"token 0", func(p Packet) { p.(*NetvarClientSet).Token = 0 }, "token"},
		{"len 1", set(1), ""},
		{"len 0", set(0), "len"},
		{"len 1185 fills the datagram", set(1185), ""},
		{"len 1186", set(1186), "len"},
	}
	checkRules(t, "client", validNetvarClientSet, send, cases)
	checkRules(t, "server", validNetvarClientSet, recv, cases)
	full := &NetvarClientSet{Token: 1, Payload: make([]byte, MaxNetvarSetPayload)}
	if full.Len() != MaxDatagram {
		t.Errorf("the largest set is %d bytes, want %d", full.Len(), MaxDatagram)
	}
}

func TestNetvarClientSetAliases(t *testing.T) {
	checkPayloadAlias(t, validNetvarClientSet(), func() Packet { return new(NetvarClientSet) }, NetvarClientSetHeaderLen)
}

func FuzzNetvarClientSet(f *testing.F) {
	f.Add(validNetvarClientSet().Append(nil))
	f.Add([]byte{IDNetvarClientSet, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0xFF, 0xFF})
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(NetvarClientSet) }) })
}

func BenchmarkNetvarClientSet(b *testing.B) {
	p := &NetvarClientSet{Token: 1, EventID: 5, Payload: bytes.Repeat([]byte{0x5A}, 16)}
	benchCodec(b, p, func() Packet { return new(NetvarClientSet) })
}
