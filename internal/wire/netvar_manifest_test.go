package wire

import (
	"bytes"
	"testing"
)

func validNetvarManifest() Packet {
	p := new(NetvarManifest)
	p.EventID, p.Payload = 21, []byte{0x07, 0x21, 0x43, 0x65, 0x87, 0xA9, 0xCB}
	return p
}

func TestNetvarManifestExample(t *testing.T) {
	checkExample(t, "netvar_manifest.bin", validNetvarManifest())
	checkTruncated(t, validNetvarManifest().Append(nil), func() Packet { return new(NetvarManifest) })
}

func TestNetvarManifestRules(t *testing.T) { checkNetvarEventRules(t, validNetvarManifest) }

func TestNetvarManifestAliases(t *testing.T) {
	checkPayloadAlias(t, validNetvarManifest(), func() Packet { return new(NetvarManifest) }, NetvarHeaderLen)
}

func FuzzNetvarManifest(f *testing.F) {
	f.Add(validNetvarManifest().Append(nil))
	f.Add([]byte{IDNetvarManifest, 1, 0, 0, 0, 0xFF, 0xFF, 1})
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(NetvarManifest) }) })
}

func BenchmarkNetvarManifest(b *testing.B) {
	p := new(NetvarManifest)
	p.EventID, p.Payload = 21, bytes.Repeat([]byte{0x5A}, 1024)
	benchCodec(b, p, func() Packet { return new(NetvarManifest) })
}
