package wire

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"
)

// Label3D (0x66) shows, changes or hides a 3D text label (world.md).
//
//	[u8 packet_id = 0x66]
//	[u32 event_id]
//	[u32 label_id]      // monotonic, never reused
//	[u8 active]         // 1 = show or replace, 0 = hide (only label_id matters)
//	[u32 color]         // 0xRRGGBB
//	[f32 x, y, z]       // position; when attached, the offset from the entity
//	[f32 draw_distance] // (0, 300]
//	[u8 attach_kind]    // 0 none, 1 player, 2 vehicle
//	[u32 attach_id]     // player_id or vehicle_id
//	[u8 text[256]]      // UTF-8, NUL-terminated; '\n' breaks the line
//
// Total: 291 bytes. Server → Client, reliable event lane. The client decoder
// rejects active other than 0 / 1 and, with active = 1, a color, position,
// distance or attach_kind out of range and a text with no NUL or not valid
// UTF-8 before it. Coordinates of every primitive are within world bounds, so
// an offset is held to them too. The server also sends every byte after the
// text's NUL as zero (decision 0016), which [Label3D.SetText] does.
type Label3D struct {
	EventID      uint32             `json:"event_id"`
	LabelID      uint32             `json:"label_id"`
	Active       uint8              `json:"active"`
	Color        uint32             `json:"color"`
	X            float32            `json:"x"`
	Y            float32            `json:"y"`
	Z            float32            `json:"z"`
	DrawDistance float32            `json:"draw_distance"`
	AttachKind   uint8              `json:"attach_kind"`
	AttachID     uint32             `json:"attach_id"`
	Text         [LabelTextLen]byte `json:"text"`
}

const (
	IDLabel3D  = 0x66
	Label3DLen = 291

	LabelTextLen         = 256 // bytes of Label3D.text, its NUL included
	MaxLabelDrawDistance = 300 // meters
)

func init() { register(IDLabel3D, func() Packet { return new(Label3D) }) }

func (*Label3D) ID() byte       { return IDLabel3D }
func (*Label3D) Name() string   { return "Label3D" }
func (*Label3D) Dir() Direction { return ServerToClient }
func (*Label3D) Len() int       { return Label3DLen }

func (p *Label3D) Append(b []byte) []byte {
	b = append(b, IDLabel3D)
	b = appendU32(b, p.EventID)
	b = appendU32(b, p.LabelID)
	b = append(b, p.Active)
	b = appendU32(b, p.Color)
	b = appendF32(b, p.X)
	b = appendF32(b, p.Y)
	b = appendF32(b, p.Z)
	b = appendF32(b, p.DrawDistance)
	b = append(b, p.AttachKind)
	b = appendU32(b, p.AttachID)
	return append(b, p.Text[:]...)
}

func (p *Label3D) Parse(b []byte) (int, error) {
	if err := head(b, IDLabel3D, Label3DLen, "Label3D"); err != nil {
		return 0, err
	}
	b = b[:Label3DLen]
	p.EventID = le.Uint32(b[1:])
	p.LabelID = le.Uint32(b[5:])
	p.Active = b[9]
	p.Color = le.Uint32(b[10:])
	p.X = f32at(b[14:])
	p.Y = f32at(b[18:])
	p.Z = f32at(b[22:])
	p.DrawDistance = f32at(b[26:])
	p.AttachKind = b[30]
	p.AttachID = le.Uint32(b[31:])
	copy(p.Text[:], b[35:])
	return Label3DLen, nil
}

// CheckSend is the server's check: the decoder's rules, and on a show the
// bytes after the text's NUL all zero.
func (p *Label3D) CheckSend() error {
	if err := p.CheckRecv(); err != nil || p.Active == 0 {
		return err
	}
	n := max(bytes.IndexByte(p.Text[:], 0), 0) // CheckRecv found a NUL
	if tail := p.Text[n:]; !bytes.Equal(tail, zeroText[:len(tail)]) {
		i := n + slices.IndexFunc(tail, func(c byte) bool { return c != 0 })
		return invalid("Label3D", "text", "must be zero after its NUL, byte %d is 0x%02X", i, p.Text[i])
	}
	return nil
}

var zeroText [LabelTextLen]byte

// CheckRecv is the client decoder's check.
func (p *Label3D) CheckRecv() error {
	const pk = "Label3D"
	if err := checkActive(pk, p.Active); err != nil || p.Active == 0 {
		return err
	}
	if err := checkRGB(pk, "color", p.Color); err != nil {
		return err
	}
	if err := checkIn(pk, "x", "y", "z", p.X, p.Y, p.Z); err != nil {
		return err
	}
	if err := checkAbove0(pk, "draw_distance", p.DrawDistance, MaxLabelDrawDistance); err != nil {
		return err
	}
	if err := checkMax(pk, "attach_kind", p.AttachKind, AttachVehicle); err != nil {
		return err
	}
	return checkText(p.Text[:])
}

// checkText checks that text holds a NUL and valid UTF-8 before it.
func checkText(text []byte) error {
	n := bytes.IndexByte(text, 0)
	if n < 0 {
		return invalid("Label3D", "text", "must be NUL-terminated within %d bytes, found no NUL", len(text))
	}
	if s := text[:n]; !utf8.Valid(s) {
		i := 0
		for i < len(s) {
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			i += size
		}
		return invalid("Label3D", "text", "must be valid UTF-8 before its NUL, byte %d is not", i)
	}
	return nil
}

// SetText sets the text, NUL-terminated and zero-padded. It rejects a text
// longer than 255 bytes, not valid UTF-8 or holding a NUL, and then leaves
// the label unchanged.
func (p *Label3D) SetText(s string) error {
	switch {
	case len(s) > LabelTextLen-1:
		return invalid("Label3D", "text", "must be at most %d bytes, got %d", LabelTextLen-1, len(s))
	case !utf8.ValidString(s):
		return invalid("Label3D", "text", "must be valid UTF-8")
	case strings.IndexByte(s, 0) >= 0:
		return invalid("Label3D", "text", "must not hold a NUL, found one at byte %d", strings.IndexByte(s, 0))
	}
	p.Text = [LabelTextLen]byte{}
	copy(p.Text[:], s)
	return nil
}

// TextString returns the text up to its NUL (all 256 bytes if it has none).
func (p *Label3D) TextString() string {
	if n := bytes.IndexByte(p.Text[:], 0); n >= 0 {
		return string(p.Text[:n])
	}
	return string(p.Text[:])
}
