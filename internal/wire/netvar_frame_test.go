package wire

import (
	"bytes"
	"testing"
)

// checkPayloadAlias checks the framing of a payload-carrying packet: in a
// datagram with a packet after it, Parse stops at len, returns a payload that
// aliases the input at offset header, and decodes with no allocation.
func checkPayloadAlias(t *testing.T, p Packet, mk func() Packet, header int) {
	t.Helper()
	enc := p.Append(nil)
	dgram := append(bytes.Clone(enc), validServerKeepalive().Append(nil)...)
	q := mk()
	n, err := q.Parse(dgram)
	if err != nil || n != len(enc) {
		t.Fatalf("Parse = %d, %v; want %d, nil", n, err, len(enc))
	}
	if _, err := new(ServerKeepalive).Parse(dgram[n:]); err != nil {
		t.Fatalf("the next packet: %v", err)
	}
	if re := q.Append(nil); !bytes.Equal(re, enc) {
		t.Fatalf("re-encode\n%x\nwant\n%x", re, enc)
	}
	dgram[header] ^= 0xFF
	if re := q.Append(nil); bytes.Equal(re, enc) {
		t.Errorf("payload does not alias the input: changing byte %d left it unchanged", header)
	}
	if a := testing.AllocsPerRun(100, func() { _, _ = q.Parse(dgram) }); a != 0 {
		t.Errorf("Parse allocates %v times, want 0", a)
	}
}

// checkNetvarEventRules checks the payload length rules that NetvarManifest,
// NetvarResync and NetvarUpdate share (netvarEvent): 1..=65529 bytes, a
// message above a datagram being fragmented by the lane.
func checkNetvarEventRules(t *testing.T, valid func() Packet) {
	t.Helper()
	set := func(n int) func(Packet) {
		return func(p Packet) {
			payload := bytes.Repeat([]byte{0x5A}, n)
			switch x := p.(type) {
			case *NetvarManifest:
				x.Payload = payload
			case *NetvarResync:
				x.Payload = payload
			case *NetvarUpdate:
				x.Payload = payload
			default:
				t.Fatalf("%s is not a netvar event", p.Name())
			}
		}
	}
	cases := []ruleCase{
		{"len 1", set(1), ""},
		{"len 0", set(0), "len"},
		{"len 1193 needs fragments", set(1193), ""},
		{"len 65529", set(MaxNetvarPayload), ""},
		{"len 65530", set(MaxNetvarPayload + 1), "len"},
	}
	checkRules(t, "server", valid, send, cases)
	checkRules(t, "client", valid, recv, cases)
}
