package wire

import (
	"bytes"
	"testing"
)

func validNetvarUpdate() Packet {
	p := new(NetvarUpdate)
	p.EventID, p.Payload = 21, []byte{0x2A, 0x80}
	return p
}

func TestNetvarUpdateExample(t *testing.T) {
	checkExample(t, "netvar_update.bin", validNetvarUpdate())
	checkTruncated(t, validNetvarUpdate().Append(nil), func() Packet { return new(NetvarUpdate) })
}

func TestNetvarUpdateRules(t *testing.T) { checkNetvarEventRules(t, validNetvarUpdate) }

func TestNetvarUpdateAliases(t *testing.T) {
	checkPayloadAlias(t, validNetvarUpdate(), func() Packet { return new(NetvarUpdate) }, NetvarHeaderLen)
}

func FuzzNetvarUpdate(f *testing.F) {
	f.Add(validNetvarUpdate().Append(nil))
	f.Add([]byte{IDNetvarUpdate, 1, 0, 0, 0, 0xFF, 0xFF, 1})
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(NetvarUpdate) }) })
}

func BenchmarkNetvarUpdate(b *testing.B) {
	p := new(NetvarUpdate)
	p.EventID, p.Payload = 21, bytes.Repeat([]byte{0x5A}, 1024)
	benchCodec(b, p, func() Packet { return new(NetvarUpdate) })
}
