package wire

import (
	"math"
	"testing"
)

func validGangZone() Packet {
	return &GangZone{
		EventID: 3, ZoneID: 120, Active: 1, Flashing: 1,
		Color: 0x8000FF, Alpha: 0x99, FlashColor: 0xFF0000,
		MinX: 2400, MinY: -1800, MaxX: 2550.5, MaxY: -1650, Rev: 4,
	}
}

func TestGangZoneExample(t *testing.T) {
	checkExample(t, "gang_zone.bin", validGangZone())
	checkTruncated(t, validGangZone().Append(nil), func() Packet { return new(GangZone) })
}

func gangZoneCases() []ruleCase {
	gz := func(f func(*GangZone)) func(Packet) { return on(f) }
	cases := []ruleCase{
		{"active 0", gz(func(p *GangZone) { p.Active = 0 }), ""},
		{"active 2", gz(func(p *GangZone) { p.Active = 2 }), "active"},
		{"flashing 0", gz(func(p *GangZone) { p.Flashing = 0 }), ""},
		{"flashing 2", gz(func(p *GangZone) { p.Flashing = 2 }), "flashing"},
		{"alpha 0", gz(func(p *GangZone) { p.Alpha = 0 }), ""},
		{"alpha 255", gz(func(p *GangZone) { p.Alpha = 255 }), ""},
		{"color 0xFFFFFF", gz(func(p *GangZone) { p.Color = 0xFFFFFF }), ""},
		{"color 0x1000000", gz(func(p *GangZone) { p.Color = 0x1000000 }), "color"},
		{"flash_color 0xFFFFFF", gz(func(p *GangZone) { p.FlashColor = 0xFFFFFF }), ""},
		{"flash_color 0x1000000", gz(func(p *GangZone) { p.FlashColor = 0x1000000 }), "flash_color"},
		{"flash_color out of range, not flashing", gz(func(p *GangZone) { p.Flashing, p.FlashColor = 0, 0xFF000000 }), "flash_color"},
		{"whole world", gz(func(p *GangZone) { p.MinX, p.MinY, p.MaxX, p.MaxY = -WorldXY, -WorldXY, WorldXY, WorldXY }), ""},
		{"max_x just above min_x", gz(func(p *GangZone) { p.MaxX = math.Nextafter32(p.MinX, inf32) }), ""},
		{"max_x = min_x", gz(func(p *GangZone) { p.MaxX = p.MinX }), "max_x"},
		{"max_x below min_x", gz(func(p *GangZone) { p.MaxX = math.Nextafter32(p.MinX, -inf32) }), "max_x"},
		{"max_y just above min_y", gz(func(p *GangZone) { p.MaxY = math.Nextafter32(p.MinY, inf32) }), ""},
		{"max_y = min_y", gz(func(p *GangZone) { p.MaxY = p.MinY }), "max_y"},
		{"max_y below min_y", gz(func(p *GangZone) { p.MaxY = math.Nextafter32(p.MinY, -inf32) }), "max_y"},
	}
	return append(cases, gangZoneCornerCases()...)
}

// gangZoneCornerCases checks each corner against world bounds: the reachable
// bound accepted, the next float past either bound rejected naming the
// corner, and NaN, +Inf, −Inf rejected. A min corner at the upper bound
// leaves no room for max and is a degenerate rectangle.
func gangZoneCornerCases() []ruleCase {
	var cases []ruleCase
	corners := []struct {
		field string
		ptr   func(*GangZone) *float32
		reach float32 // the bound the corner can stand on
		other string  // the field a min corner at the far bound is reported as
	}{
		{"min_x", func(p *GangZone) *float32 { return &p.MinX }, -WorldXY, "max_x"},
		{"min_y", func(p *GangZone) *float32 { return &p.MinY }, -WorldXY, "max_y"},
		{"max_x", func(p *GangZone) *float32 { return &p.MaxX }, WorldXY, "max_x"},
		{"max_y", func(p *GangZone) *float32 { return &p.MaxY }, WorldXY, "max_y"},
	}
	for _, c := range corners {
		set := func(v float32) func(Packet) { return on(func(p *GangZone) { *c.ptr(p) = v }) }
		cases = append(cases,
			ruleCase{c.field + " on its bound", set(c.reach), ""},
			ruleCase{c.field + " at the far bound", set(-c.reach), c.other},
			ruleCase{c.field + " past -6000", set(math.Nextafter32(-WorldXY, -inf32)), c.field},
			ruleCase{c.field + " past 6000", set(math.Nextafter32(WorldXY, inf32)), c.field},
			ruleCase{c.field + " NaN", set(nan32), c.field},
			ruleCase{c.field + " +Inf", set(inf32), c.field},
			ruleCase{c.field + " -Inf", set(-inf32), c.field},
		)
	}
	return cases
}

func TestGangZoneRules(t *testing.T) {
	checkRules(t, "server", validGangZone, send, gangZoneCases())
	checkRules(t, "client", validGangZone, recv, gangZoneCases())
	checkHide(t, validGangZone, 9, gangZoneCases())
}

func FuzzGangZone(f *testing.F) {
	f.Add(validGangZone().Append(nil))
	hide := validGangZone().Append(nil)
	hide[9] = 0
	f.Add(hide)
	f.Add(make([]byte, GangZoneLen))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(GangZone) }) })
}

func BenchmarkGangZone(b *testing.B) {
	benchCodec(b, validGangZone(), func() Packet { return new(GangZone) })
}
