package wire

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// partA lists the packets of world.md part A with a valid instance and a
// zero one, for the cross-checks below.
var partA = []struct {
	valid func() Packet
	mk    func() Packet
}{
	{validPickupSync, func() Packet { return new(PickupSync) }},
	{validPickupTouch, func() Packet { return new(PickupTouch) }},
	{validSetWeather, func() Packet { return new(SetWeather) }},
	{validRunClock, func() Packet { return new(RunClock) }},
	{validGarageDoors, func() Packet { return new(GarageDoors) }},
	{validPlayerWaypoint, func() Packet { return new(PlayerWaypoint) }},
	{validSetWaypoint, func() Packet { return new(SetWaypoint) }},
}

// TestPartALayoutMatchesEncodingBinary checks every hand-written codec of
// part A against the reflective encoding/binary over the same struct: the
// fields are declared in wire order, so the id byte followed by
// binary.Append's packed little-endian bytes must be the packet, and
// binary.Decode of the body must give the struct Parse gives.
func TestPartALayoutMatchesEncodingBinary(t *testing.T) {
	for _, c := range partA {
		p := c.valid()
		got := p.Append(nil)
		want, err := binary.Append([]byte{p.ID()}, binary.LittleEndian, p)
		if err != nil {
			t.Fatalf("%s: binary.Append: %v", p.Name(), err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: Append gives\n%x\nencoding/binary gives\n%x", p.Name(), got, want)
		}
		if binary.Size(p)+1 != p.Len() {
			t.Errorf("%s: Len() = %d, encoding/binary size + id = %d", p.Name(), p.Len(), binary.Size(p)+1)
		}
		q, r := c.mk(), c.mk()
		if _, err := q.Parse(want); err != nil {
			t.Fatalf("%s: Parse: %v", p.Name(), err)
		}
		if _, err := binary.Decode(want[1:], binary.LittleEndian, r); err != nil {
			t.Fatalf("%s: binary.Decode: %v", p.Name(), err)
		}
		if !bytes.Equal(q.Append(nil), r.Append(nil)) {
			t.Errorf("%s: Parse and binary.Decode disagree: %+v vs %+v", p.Name(), q, r)
		}
	}
}

// BenchmarkPartA measures, per packet, one encode + decode + CheckRecv with
// the hand-written codec side by side with the reflective encoding/binary
// doing the same work, so the report is a ratio.
func BenchmarkPartA(b *testing.B) {
	for _, c := range partA {
		p := c.valid()
		b.Run(p.Name()+"/wire", func(b *testing.B) { benchCodec(b, p, c.mk) })
		b.Run(p.Name()+"/encoding-binary", func(b *testing.B) {
			buf := make([]byte, 0, p.Len())
			q := c.mk()
			b.ReportAllocs()
			b.SetBytes(int64(p.Len()))
			for b.Loop() {
				var err error
				buf, err = binary.Append(append(buf[:0], p.ID()), binary.LittleEndian, p)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := binary.Decode(buf[1:], binary.LittleEndian, q); err != nil {
					b.Fatal(err)
				}
				if err := q.CheckRecv(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
