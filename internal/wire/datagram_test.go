package wire

import (
	"bytes"
	"testing"
)

// protoPackets returns a valid instance of every packet docs/protocol.md
// defines and this package implements.
func protoPackets() []Packet {
	return []Packet{
		validClientHello(), validHelloRetry(), validServerHello(), validDisconnect(),
		validClientDisconnect(), validClientKeepalive(), validServerKeepalive(),
		validPlayerSync(), validSpawnPlayer(), validRespawnPlayer(), validTeleportPlayer(),
		validSetSkin(), validSetWanted(), validGiveWeapon(), validGiveHealth(), validGiveArmor(),
		validCreateExplosion(), validClientChat(), validChatMessage(), validPlayerShow(),
		validVehicleShow(), validPlayerMove(), validVehicleMove(), validEditState(),
		validEntityEdit(), validNetvarSync(), validNetvarManifest(), validNetvarResyncRequest(),
		validNetvarResync(), validNetvarUpdate(), validNetvarClientSet(),
	}
}

// TestDatagramWalk checks that every packet is self-delimiting: packets of
// one direction packed back to back in datagrams of at most MaxDatagram
// bytes are read one after the other by their first byte alone.
func TestDatagramWalk(t *testing.T) {
	for _, dir := range []Direction{ServerToClient, ClientToServer} {
		var dgrams [][]byte
		var want []Packet
		var cur []byte
		for _, p := range protoPackets() {
			if p.Dir() != dir {
				continue
			}
			if len(cur)+p.Len() > MaxDatagram {
				dgrams, cur = append(dgrams, cur), nil
			}
			cur = p.Append(cur)
			want = append(want, p)
		}
		dgrams = append(dgrams, cur)
		i := 0
		for _, d := range dgrams {
			if len(d) > MaxDatagram {
				t.Fatalf("%s: a datagram of %d bytes", dir, len(d))
			}
			for len(d) > 0 {
				p := New(d[0])
				if p == nil {
					t.Fatalf("%s: unknown id 0x%02X at packet %d", dir, d[0], i)
				}
				n, err := p.Parse(d)
				if err != nil {
					t.Fatalf("%s: packet %d (%s): %v", dir, i, p.Name(), err)
				}
				if err := p.CheckRecv(); err != nil {
					t.Errorf("%s: packet %d: %v", dir, i, err)
				}
				if got, w := p.Append(nil), want[i].Append(nil); !bytes.Equal(got, w) {
					t.Errorf("%s: packet %d (%s) decodes to\n%x\nwant\n%x", dir, i, p.Name(), got, w)
				}
				d = d[n:]
				i++
			}
		}
		if i != len(want) {
			t.Errorf("%s: walked %d packets, want %d", dir, i, len(want))
		}
	}
}

// TestProtoPacketsComplete checks that protoPackets covers every id this
// file's packets register, so the walk above cannot silently skip one.
func TestProtoPacketsComplete(t *testing.T) {
	seen := map[byte]bool{}
	for _, p := range protoPackets() {
		if seen[p.ID()] {
			t.Errorf("%s listed twice", p.Name())
		}
		seen[p.ID()] = true
	}
	for _, id := range []byte{0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0B, 0x0C, 0x0D,
		0x10, 0x11, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x1B, 0x1C, 0x20, 0x2A,
		0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x5A} {
		if !seen[id] {
			t.Errorf("0x%02X is not in protoPackets", id)
		}
		if New(id) == nil {
			t.Errorf("0x%02X is not registered", id)
		}
	}
}
