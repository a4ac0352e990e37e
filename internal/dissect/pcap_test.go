package dissect

import (
	"bytes"
	"net/netip"
	"testing"
)

// TestPcapRoundTrip checks the fallback capture writer with the reader the
// tests use on dumpcap's output; it needs no tools.
func TestPcapRoundTrip(t *testing.T) {
	a := netip.MustParseAddrPort("127.0.0.1:7777")
	b := netip.MustParseAddrPort("127.0.0.1:50123")
	in := []datagram{
		{a, b, []byte{0x09, 1, 2, 3, 4}},
		{b, a, bytes.Repeat([]byte{0xA5}, 1200)},
		{a, b, nil},
	}
	pcap, err := writePcap(in)
	if err != nil {
		t.Fatal(err)
	}
	got, err := readPcap(pcap)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(in) {
		t.Fatalf("read %d datagrams, want %d", len(got), len(in))
	}
	for i, d := range in {
		g := got[i]
		if g.srcPort != d.from.Port() || g.dstPort != d.to.Port() || !bytes.Equal(g.payload, d.payload) {
			t.Errorf("datagram %d: got %d → %d %x, want %d → %d %x", i, g.srcPort, g.dstPort, g.payload, d.from.Port(), d.to.Port(), d.payload)
		}
	}
	// The IPv4 header checksum verifies: summing the header with it gives 0xFFFF.
	if sum := ipChecksum(pcap[24+16 : 24+16+20]); sum != 0 {
		t.Errorf("IPv4 header checksum does not verify: residue %#04x", sum)
	}
}

func TestPcapRejects(t *testing.T) {
	a := netip.MustParseAddrPort("127.0.0.1:7777")
	good, err := writePcap([]datagram{{a, a, []byte{1, 2, 3}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"bad magic", append([]byte{1, 2, 3, 4}, good[4:]...)},
		{"record cut", good[:len(good)-1]},
		{"record header cut", good[:24+10]},
	} {
		if _, err := readPcap(tc.b); err == nil {
			t.Errorf("%s: readPcap accepted %d bytes", tc.name, len(tc.b))
		}
	}
	v6 := netip.MustParseAddrPort("[::1]:7777")
	if _, err := writePcap([]datagram{{v6, v6, nil}}); err == nil {
		t.Error("writePcap accepted an IPv6 datagram")
	}
}
