package wire

import (
	"bytes"
	"testing"
)

func validNetvarResyncRequest() Packet {
	return &NetvarResyncRequest{Token: 0x0123456789ABCDEF, Payload: []byte{0x02, 0x11, 0x22}}
}

func TestNetvarResyncRequestExample(t *testing.T) {
	checkExample(t, "netvar_resync_request.bin", validNetvarResyncRequest())
	checkTruncated(t, validNetvarResyncRequest().Append(nil), func() Packet { return new(NetvarResyncRequest) })
}

func TestNetvarResyncRequestRules(t *testing.T) {
	set := func(n int) func(Packet) {
		return func(p Packet) { p.(*NetvarResyncRequest).Payload = bytes.Repeat([]byte{0x5A}, n) }
	}
	cases := []ruleCase{
		{"token 0", func(p Packet) { p.(*NetvarResyncRequest).Token = 0 }, "token"},
		{"len 1", set(1), ""},
		{"len 0", set(0), "len"},
		{"len 1189 fills the datagram", set(1189), ""},
		{"len 1190", set(1190), "len"},
	}
	checkRules(t, "client", validNetvarResyncRequest, send, cases)
	checkRules(t, "server", validNetvarResyncRequest, recv, cases)
	full := &NetvarResyncRequest{Token: 1, Payload: make([]byte, MaxNetvarRequestPayload)}
	if full.Len() != MaxDatagram {
		t.Errorf("the largest request is %d bytes, want %d", full.Len(), MaxDatagram)
	}
}

func TestNetvarResyncRequestAliases(t *testing.T) {
	checkPayloadAlias(t, validNetvarResyncRequest(), func() Packet { return new(NetvarResyncRequest) }, NetvarResyncRequestHeaderLen)
}

func FuzzNetvarResyncRequest(f *testing.F) {
	f.Add(validNetvarResyncRequest().Append(nil))
	f.Add([]byte{IDNetvarResyncRequest, 1, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF})
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRoundTrip(t, data, func() Packet { return new(NetvarResyncRequest) })
	})
}

func BenchmarkNetvarResyncRequest(b *testing.B) {
	p := &NetvarResyncRequest{Token: 1, Payload: bytes.Repeat([]byte{0x5A}, 64)}
	benchCodec(b, p, func() Packet { return new(NetvarResyncRequest) })
}
