package wire

import (
	"bytes"
	"testing"
)

func validNetvarResync() Packet {
	p := new(NetvarResync)
	p.EventID, p.Payload = 21, []byte{0x03, 0x00, 0xF0, 0x0D}
	return p
}

func TestNetvarResyncExample(t *testing.T) {
	checkExample(t, "netvar_resync.bin", validNetvarResync())
	checkTruncated(t, validNetvarResync().Append(nil), func() Packet { return new(NetvarResync) })
}

func TestNetvarResyncRules(t *testing.T) { checkNetvarEventRules(t, validNetvarResync) }

func TestNetvarResyncAliases(t *testing.T) {
	checkPayloadAlias(t, validNetvarResync(), func() Packet { return new(NetvarResync) }, NetvarHeaderLen)
}

func FuzzNetvarResync(f *testing.F) {
	f.Add(validNetvarResync().Append(nil))
	f.Add([]byte{IDNetvarResync, 1, 0, 0, 0, 0xFF, 0xFF, 1})
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(NetvarResync) }) })
}

func BenchmarkNetvarResync(b *testing.B) {
	p := new(NetvarResync)
	p.EventID, p.Payload = 21, bytes.Repeat([]byte{0x5A}, 1024)
	benchCodec(b, p, func() Packet { return new(NetvarResync) })
}
