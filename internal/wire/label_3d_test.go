package wire

import (
	"errors"
	"strings"
	"testing"
)

func validLabel3D() Packet {
	p := &Label3D{
		EventID: 41, LabelID: 9, Active: 1, Color: 0xFFA500,
		X: 2495.5, Y: -1687.25, Z: 13.5, DrawDistance: 25,
		AttachKind: AttachNone, AttachID: 0,
	}
	if err := p.SetText("Grove Street\nPress Y to enter — ¡bienvenido!"); err != nil {
		panic(err)
	}
	return p
}

func TestLabel3DExample(t *testing.T) {
	checkExample(t, "label_3d.bin", validLabel3D())
	checkTruncated(t, validLabel3D().Append(nil), func() Packet { return new(Label3D) })
}

func label3DCases() []ruleCase {
	lb := func(f func(*Label3D)) func(Packet) { return on(f) }
	cases := []ruleCase{
		{"active 0", lb(func(p *Label3D) { p.Active = 0 }), ""},
		{"active 2", lb(func(p *Label3D) { p.Active = 2 }), "active"},
		{"active 255", lb(func(p *Label3D) { p.Active = 255 }), "active"},
		{"color 0xFFFFFF", lb(func(p *Label3D) { p.Color = 0xFFFFFF }), ""},
		{"color 0x1000000", lb(func(p *Label3D) { p.Color = 0x1000000 }), "color"},
		{"attach_kind 2", lb(func(p *Label3D) { p.AttachKind = 2; p.AttachID = 7 }), ""},
		{"attach_kind 3", lb(func(p *Label3D) { p.AttachKind = 3 }), "attach_kind"},
		{"text of 255 bytes", lb(func(p *Label3D) { copy(p.Text[:], strings.Repeat("é", 127)+"x") }), ""},
		{"empty text", lb(func(p *Label3D) { p.Text = [LabelTextLen]byte{} }), ""},
		{"text without NUL", lb(func(p *Label3D) { copy(p.Text[:], strings.Repeat("a", LabelTextLen)) }), "text"},
		{"text with a bad byte", lb(func(p *Label3D) { p.Text[3] = 0xFF }), "text"},
		{"text with a cut rune", lb(func(p *Label3D) { p.Text = [LabelTextLen]byte{'a', 0xC3} }), "text"},
	}
	cases = append(cases, worldCases("x", "y", "z", func(p Packet, axis int, v float32) {
		l := p.(*Label3D)
		*[]*float32{&l.X, &l.Y, &l.Z}[axis] = v
	})...)
	return append(cases, floatCases("draw_distance", func(p Packet, v float32) { p.(*Label3D).DrawDistance = v }, 0, MaxLabelDrawDistance, true)...)
}

// label3DGarbageAfterNUL leaves bytes after the text's NUL: the client
// accepts them, the server does not send them.
var label3DGarbageAfterNUL = []ruleCase{
	{"byte after the NUL", on(func(p *Label3D) { p.Text[LabelTextLen-1] = 'x'; p.Text[LabelTextLen-2] = 0 }), "text"},
}

func TestLabel3DRules(t *testing.T) {
	checkRules(t, "server", validLabel3D, send, append(label3DCases(), label3DGarbageAfterNUL...))
	checkRules(t, "client", validLabel3D, recv, append(label3DCases(), sendOnly(label3DGarbageAfterNUL)...))
	checkHide(t, validLabel3D, 9, append(label3DCases(), label3DGarbageAfterNUL...))
}

func TestLabel3DSetText(t *testing.T) {
	tests := []struct {
		text string
		ok   bool
	}{
		{"", true},
		{"line one\nline two", true},
		{strings.Repeat("z", 255), true},
		{strings.Repeat("z", 256), false},
		{strings.Repeat("€", 85), true}, // 255 bytes
		{strings.Repeat("€", 85) + "z", false},
		{"bad \xFF byte", false},
		{"nul\x00inside", false},
	}
	for _, tt := range tests {
		p := validLabel3D().(*Label3D)
		before := p.Text
		err := p.SetText(tt.text)
		if tt.ok != (err == nil) {
			t.Errorf("SetText(%.20q): err = %v, want ok %v", tt.text, err, tt.ok)
			continue
		}
		if !tt.ok {
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "Label3D.text") {
				t.Errorf("SetText(%.20q): err = %v, want an ErrInvalid naming Label3D.text", tt.text, err)
			}
			if p.Text != before {
				t.Errorf("SetText(%.20q) failed but changed the text", tt.text)
			}
			continue
		}
		if got := p.TextString(); got != tt.text {
			t.Errorf("TextString() = %.20q, want %.20q", got, tt.text)
		}
		if err := p.CheckSend(); err != nil {
			t.Errorf("SetText(%.20q) then CheckSend: %v", tt.text, err)
		}
	}
}

func TestLabel3DShorterTextClearsTail(t *testing.T) {
	p := validLabel3D().(*Label3D)
	if err := p.SetText("hi"); err != nil {
		t.Fatal(err)
	}
	for i, c := range p.Text[2:] {
		if c != 0 {
			t.Fatalf("byte %d after a shorter SetText is 0x%02X, want 0", 2+i, c)
		}
	}
}

func TestLabel3DTextStringWithoutNUL(t *testing.T) {
	var p Label3D
	copy(p.Text[:], strings.Repeat("q", LabelTextLen))
	if got := p.TextString(); got != strings.Repeat("q", LabelTextLen) {
		t.Errorf("TextString() without NUL = %d bytes, want all %d", len(got), LabelTextLen)
	}
}

func FuzzLabel3D(f *testing.F) {
	f.Add(validLabel3D().Append(nil))
	hide := validLabel3D().Append(nil)
	hide[9] = 0
	f.Add(hide)
	f.Add(make([]byte, Label3DLen))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(Label3D) }) })
}

func BenchmarkLabel3D(b *testing.B) {
	benchCodec(b, validLabel3D(), func() Packet { return new(Label3D) })
}
