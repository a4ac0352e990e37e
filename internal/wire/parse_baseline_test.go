package wire

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// parseObjectStateCursor is ObjectState.Parse written with the consuming
// cursor of codec.go: the baseline of decision 0018.
func parseObjectStateCursor(p *ObjectState, b []byte) (int, error) {
	if err := head(b, IDObjectState, ObjectStateLen, "ObjectState"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.EventID = c.u32()
	p.ObjectID = c.u32()
	p.Active = c.u8()
	p.Model = c.u16()
	p.X, p.Y, p.Z = c.f32(), c.f32(), c.f32()
	p.RX, p.RY, p.RZ = c.f32(), c.f32(), c.f32()
	p.Interior = c.i32()
	p.AttachKind = c.u8()
	p.AttachID = c.u32()
	p.MoveMS = c.u32()
	p.ToX, p.ToY, p.ToZ = c.f32(), c.f32(), c.f32()
	p.ToRX, p.ToRY, p.ToRZ = c.f32(), c.f32(), c.f32()
	p.Rev = c.u32()
	p.Bone = c.u8()
	p.Broken = c.u8()
	return ObjectStateLen, nil
}

// objectStateWire is ObjectState with its id, as binary.Read sees it.
type objectStateWire struct {
	ID uint8
	ObjectState
}

func TestParseBaselinesAgree(t *testing.T) {
	enc := validMovingObject().Append(nil)
	var fixed, cur ObjectState
	if _, err := fixed.Parse(enc); err != nil {
		t.Fatal(err)
	}
	if _, err := parseObjectStateCursor(&cur, enc); err != nil {
		t.Fatal(err)
	}
	var refl objectStateWire
	if err := binary.Read(bytes.NewReader(enc), binary.LittleEndian, &refl); err != nil {
		t.Fatal(err)
	}
	if cur != fixed || refl.ObjectState != fixed {
		t.Errorf("parsers disagree:\nfixed  %+v\ncursor %+v\nbinary %+v", fixed, cur, refl.ObjectState)
	}
}

// BenchmarkObjectStateParse compares the fixed-offset Parse with the cursor
// and with reflective binary.Read, on the largest numeric packet.
func BenchmarkObjectStateParse(b *testing.B) {
	enc := validMovingObject().Append(nil)
	b.Run("fixed", func(b *testing.B) {
		var p ObjectState
		b.ReportAllocs()
		for b.Loop() {
			if _, err := p.Parse(enc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cursor", func(b *testing.B) {
		var p ObjectState
		b.ReportAllocs()
		for b.Loop() {
			if _, err := parseObjectStateCursor(&p, enc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("binary.Read", func(b *testing.B) {
		var p objectStateWire
		b.ReportAllocs()
		for b.Loop() {
			if err := binary.Read(bytes.NewReader(enc), binary.LittleEndian, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
}
