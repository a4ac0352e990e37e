package wire

import "testing"

func validBlip() Packet {
	return &Blip{
		EventID: 5, BlipID: 77, Active: 1, Sprite: 52, Color: 0x20C020,
		X: -2026.5, Y: 156.75, Z: 29, AttachKind: AttachNone,
		Size: 1.5, Flags: BlipShortRange,
	}
}

func TestBlipExample(t *testing.T) {
	checkExample(t, "blip.bin", validBlip())
	checkTruncated(t, validBlip().Append(nil), func() Packet { return new(Blip) })
}

func blipCases() []ruleCase {
	bl := func(f func(*Blip)) func(Packet) { return on(f) }
	cases := []ruleCase{
		{"active 0", bl(func(p *Blip) { p.Active = 0 }), ""},
		{"active 2", bl(func(p *Blip) { p.Active = 2 }), "active"},
		{"sprite 0", bl(func(p *Blip) { p.Sprite = 0 }), ""},
		{"sprite 63", bl(func(p *Blip) { p.Sprite = MaxBlipSprite }), ""},
		{"sprite 64", bl(func(p *Blip) { p.Sprite = 64 }), "sprite"},
		{"color 0xFFFFFF", bl(func(p *Blip) { p.Color = 0xFFFFFF }), ""},
		{"color 0x1000000", bl(func(p *Blip) { p.Color = 0x1000000 }), "color"},
		{"dot on a player", bl(func(p *Blip) { p.Sprite, p.AttachKind, p.AttachID = 0, AttachPlayer, 3 }), ""},
		{"dot on a vehicle", bl(func(p *Blip) { p.Sprite, p.AttachKind, p.AttachID = 0, AttachVehicle, 3 }), ""},
		{"attach_kind 3", bl(func(p *Blip) { p.Sprite, p.AttachKind = 0, 3 }), "attach_kind"},
		{"sprite 1 on a player", bl(func(p *Blip) { p.Sprite, p.AttachKind = 1, AttachPlayer }), "sprite"},
		{"sprite 63 on a vehicle", bl(func(p *Blip) { p.Sprite, p.AttachKind = 63, AttachVehicle }), "sprite"},
		{"flags 0", bl(func(p *Blip) { p.Flags = 0 }), ""},
		{"flags 3", bl(func(p *Blip) { p.Flags = BlipPulse | BlipShortRange }), ""},
		{"flags bit 2", bl(func(p *Blip) { p.Flags = 1 << 2 }), "flags"},
		{"flags bit 7", bl(func(p *Blip) { p.Flags = 1<<7 | BlipPulse }), "flags"},
	}
	cases = append(cases, worldCases("x", "y", "z", func(p Packet, axis int, v float32) {
		b := p.(*Blip)
		*[]*float32{&b.X, &b.Y, &b.Z}[axis] = v
	})...)
	return append(cases, floatCases("size", func(p Packet, v float32) { p.(*Blip).Size = v }, MinBlipSize, MaxBlipSize, false)...)
}

func TestBlipRules(t *testing.T) {
	checkRules(t, "server", validBlip, send, blipCases())
	checkRules(t, "client", validBlip, recv, blipCases())
	checkHide(t, validBlip, 9, blipCases())
}

// TestBlipHideSend: the server sends a hide only with size and flags in
// range, whatever else it holds (decision 0015).
func TestBlipHideSend(t *testing.T) {
	hide := func() Packet {
		return &Blip{BlipID: 77, Active: 0, Sprite: 200, Color: 0xFFFFFFFF, X: nan32, Y: inf32, Z: -inf32, AttachKind: 9, Size: 1}
	}
	bl := func(f func(*Blip)) func(Packet) { return on(f) }
	cases := []ruleCase{
		{"garbage but size and flags", bl(func(*Blip) {}), ""},
		{"flags 3", bl(func(p *Blip) { p.Flags = 3 }), ""},
		{"flags bit 2", bl(func(p *Blip) { p.Flags = 4 }), "flags"},
		{"active 2", bl(func(p *Blip) { p.Active = 2 }), "active"},
	}
	cases = append(cases, floatCases("size", func(p Packet, v float32) { p.(*Blip).Size = v }, MinBlipSize, MaxBlipSize, false)...)
	checkRules(t, "server hide", hide, send, cases)
	for i := range cases {
		if cases[i].field != "active" {
			cases[i].field = ""
		}
	}
	checkRules(t, "client hide", hide, recv, cases)
}

func FuzzBlip(f *testing.F) {
	f.Add(validBlip().Append(nil))
	hide := validBlip().Append(nil)
	hide[9] = 0
	f.Add(hide)
	f.Add(make([]byte, BlipLen))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(Blip) }) })
}

func BenchmarkBlip(b *testing.B) {
	benchCodec(b, validBlip(), func() Packet { return new(Blip) })
}
