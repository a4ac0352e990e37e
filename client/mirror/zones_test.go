package mirror

import (
	"testing"

	"dlmp/internal/wire"
)

func zone(id uint32, color, flash uint32, flashing uint8) *wire.GangZone {
	return &wire.GangZone{
		ZoneID: id, Active: 1, Flashing: flashing, Color: color, Alpha: 0x99, FlashColor: flash,
		MinX: -10, MinY: -10, MaxX: 10, MaxY: 10, Rev: 1,
	}
}

func TestZoneFlashing(t *testing.T) {
	tests := []struct {
		ms   int
		want uint32
	}{
		{0, 0x000000},
		// (1 − cos(2π/8))/2 = 0.1464…: 37.3, 18.7, 9.3.
		{128, 0x251309},
		{256, 0x7F4020}, // a quarter: halfway, 127 / 64 / 32
		{512, 0xFE8040}, // half: flash_color
		{768, 0x7F4020},
		{1024, 0x000000}, // a whole period: back to color
		{1024 + 512, 0xFE8040},
		{10 * 1024, 0x000000},
	}
	m := newMirror(t, frozenHello())
	apply(t, m, zone(1, 0x000000, 0xFE8040, 1), at(0))
	for _, tt := range tests {
		m.Advance(at(tt.ms))
		z, ok := m.Zone(1)
		if !ok {
			t.Fatal("zone 1 not held")
		}
		if z.Color != tt.want {
			t.Errorf("at %d ms: color %06X, want %06X", tt.ms, z.Color, tt.want)
		}
		if z.Alpha != 0x99 {
			t.Errorf("at %d ms: alpha %02X, want the constant 99", tt.ms, z.Alpha)
		}
	}
}

func TestZoneFlashPhaseIsKept(t *testing.T) {
	m := newMirror(t, frozenHello())
	// Shown a quarter period after the mirror started: it joins the
	// client's phase rather than starting one of its own.
	apply(t, m, zone(1, 0x000000, 0xFE8040, 1), at(256))
	if z, _ := m.Zone(1); z.Color != 0x7F4020 {
		t.Errorf("zone shown at 256 ms: color %06X, want 7F4020", z.Color)
	}
	// A repeated show does not restart the phase.
	apply(t, m, zone(1, 0x000000, 0xFE8040, 1), at(400))
	m.Advance(at(512))
	if z, _ := m.Zone(1); z.Color != 0xFE8040 {
		t.Errorf("after a repeated show, at 512 ms: color %06X, want FE8040", z.Color)
	}
	// A zone that stops flashing shows its color.
	apply(t, m, zone(1, 0x112233, 0xFE8040, 0), at(600))
	if z, _ := m.Zone(1); z.Color != 0x112233 || z.Flashing {
		t.Errorf("after flashing stopped: color %06X flashing %v, want 112233 false", z.Color, z.Flashing)
	}
}

func TestZoneOrderAndReplace(t *testing.T) {
	m := newMirror(t, frozenHello())
	for _, id := range []uint32{5, 2, 9} {
		apply(t, m, zone(id, id, 0, 0), at(0))
	}
	apply(t, m, zone(5, 0xABCDEF, 0, 0), at(1))
	apply(t, m, &wire.GangZone{ZoneID: 9}, at(2))
	got := m.Zones()
	if len(got) != 2 || got[0].ID != 2 || got[1].ID != 5 {
		t.Fatalf("Zones() = %+v, want zones 2 then 5 (a later id drawn over an earlier one)", got)
	}
	if got[1].Color != 0xABCDEF {
		t.Errorf("zone 5 color = %06X, want the replacing show's ABCDEF", got[1].Color)
	}
}
