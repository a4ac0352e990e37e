package mirror

import (
	"cmp"
	"math"
	"slices"
	"time"

	"dlmp/internal/wire"
)

// Gang zones (world.md GangZone). A repeated show with the same zone_id
// replaces the zone; a later zone_id is drawn over an earlier one, so Zones
// lists them in drawing order. While a zone flashes its color moves
// smoothly from color to flash_color and back over FlashPeriod, with a
// constant alpha: at phase φ of the period the weight of flash_color is
// (1 − cos 2πφ)/2, so the color leaves and meets each end with zero speed
// (decision 0091). The client keeps the phase: one phase for every zone,
// running from the mirror's start, so a replaced or newly flashing zone
// flashes in step with the others and a repeated show does not restart it.

// FlashPeriod is one flashing cycle: color → flash_color → color.
const FlashPeriod = 1024 * time.Millisecond

// Zone is a held gang zone.
type Zone struct {
	ID         uint32
	Color      uint32 // 0xRRGGBB drawn now: the flashing blend, or the color
	Alpha      uint8
	Flashing   bool
	BaseColor  uint32 // the packet's color
	FlashColor uint32 // the packet's flash_color
	Min, Max   [2]float64
	Rev        uint32
}

func (m *Mirror) zoneOf(p *wire.GangZone) Zone {
	z := Zone{
		ID: p.ZoneID, Color: p.Color, Alpha: p.Alpha, Flashing: p.Flashing == 1,
		BaseColor: p.Color, FlashColor: p.FlashColor,
		Min: [2]float64{float64(p.MinX), float64(p.MinY)},
		Max: [2]float64{float64(p.MaxX), float64(p.MaxY)},
		Rev: p.Rev,
	}
	if z.Flashing {
		z.Color = blend(p.Color, p.FlashColor, flashWeight(m.now.Sub(m.flashEpoch)))
	}
	return z
}

// flashWeight returns flash_color's weight after el of flashing.
func flashWeight(el time.Duration) float64 {
	ph := float64(el%FlashPeriod) / float64(FlashPeriod)
	if ph < 0 {
		ph++
	}
	s := math.Sin(math.Pi * ph) // (1 − cos 2πφ)/2 = sin²(πφ)
	return s * s
}

// blend mixes two 0xRRGGBB colors channel by channel, w of b, rounding to
// the nearest level.
func blend(a, b uint32, w float64) uint32 {
	var out uint32
	for sh := 0; sh <= 16; sh += 8 {
		ca, cb := float64(a>>sh&0xFF), float64(b>>sh&0xFF)
		out |= uint32(math.Round(ca+(cb-ca)*w)) << sh
	}
	return out
}

// Zone returns the held zone id with its color now.
func (m *Mirror) Zone(id uint32) (Zone, bool) {
	if p := m.zones[id]; p != nil {
		return m.zoneOf(p), true
	}
	return Zone{}, false
}

// Zones returns every held zone in drawing order (by zone_id: a later one
// is drawn over an earlier one), each with its color now.
func (m *Mirror) Zones() []Zone {
	out := make([]Zone, 0, len(m.zones))
	for _, p := range m.zones {
		out = append(out, m.zoneOf(p))
	}
	slices.SortFunc(out, func(a, b Zone) int { return cmp.Compare(a.ID, b.ID) })
	return out
}
