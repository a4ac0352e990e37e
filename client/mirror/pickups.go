package mirror

import (
	"cmp"
	"slices"
	"time"

	"dlmp/internal/wire"
)

// Pickups (world.md PickupSync, PickupTouch). A show checks model and
// position once more ((*wire.PickupSync).Placement) and places the pickup
// at 1/8 m; a show of a shown pickup replaces it, and one that fails the
// check removes the copy it would have replaced (the server's pickup is no
// longer what the client shows) and is counted. A hide removes it.
//
// Touches: the client tests the local player against the pickups the
// server showed it and reports a touch on the outside → inside transition,
// then again every TouchRetry while the player stays inside and the server
// has not removed the pickup; never once per frame. The touch radius is the
// one decision 0071 gives clients: TouchRadius meters times the pickup's
// scale when it is above 1, measured in 3D from the placed position, half
// the server's radius, so the position the server holds when the touch
// arrives is still inside its own.

const (
	// TouchRadius is the client's touch radius of a pickup at scale 1,
	// meters: half the server's 3 m (decision 0071).
	TouchRadius = 1.5
	// TouchRetry is how often a touch is repeated while the player stays
	// inside a pickup's radius.
	TouchRetry = time.Second
)

// Pickup is a placed pickup.
type Pickup struct {
	ID        uint32
	Model     uint32
	Steps     [3]int16 // the placed position in steps of 1/8 m
	Scale     float64
	Highlight bool // the pickup glows
	Rev       uint32
}

// Pos returns the placed position in meters.
func (p *Pickup) Pos() Vec3 {
	const k = 1.0 / wire.PickupSteps
	return Vec3{float64(p.Steps[0]) * k, float64(p.Steps[1]) * k, float64(p.Steps[2]) * k}
}

// TouchRadius returns the pickup's touch radius in meters.
func (p *Pickup) TouchRadius() float64 { return TouchRadius * max(p.Scale, 1) }

type pickup struct {
	Pickup
	inside    bool      // the local player was inside at the last Touches
	lastTouch time.Time // when the last touch was reported
}

func (m *Mirror) applyPickup(p *wire.PickupSync) {
	if p.Active == 0 {
		delete(m.pickups, p.PickupID)
		return
	}
	x, y, z, err := p.Placement()
	if err != nil {
		delete(m.pickups, p.PickupID)
		m.stats.PickupsRefused++
		return
	}
	pk := m.pickups[p.PickupID]
	if pk == nil {
		pk = &pickup{}
		m.pickups[p.PickupID] = pk
	}
	pk.Pickup = Pickup{
		ID: p.PickupID, Model: p.Model, Steps: [3]int16{x, y, z},
		Scale: float64(p.Scale), Highlight: p.Highlight == 1, Rev: p.Rev,
	}
}

// Pickup returns the placed pickup id.
func (m *Mirror) Pickup(id uint32) (Pickup, bool) {
	if pk := m.pickups[id]; pk != nil {
		return pk.Pickup, true
	}
	return Pickup{}, false
}

// Pickups returns every placed pickup, by id.
func (m *Mirror) Pickups() []Pickup {
	out := make([]Pickup, 0, len(m.pickups))
	for _, pk := range m.pickups {
		out = append(out, pk.Pickup)
	}
	slices.SortFunc(out, func(a, b Pickup) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// Touches runs time to now and appends to dst the ids of the pickups the
// local player, at pos, should report with PickupTouch now: those it has
// just entered, and those it has stayed inside for TouchRetry since the
// last report. Nothing is touched before the first spawn; the caller does
// not call it while the player is dead. The ids come in ascending order.
func (m *Mirror) Touches(dst []uint32, pos Vec3, now time.Time) []uint32 {
	m.Advance(now)
	n := len(dst)
	for id, pk := range m.pickups {
		r := pk.TouchRadius()
		in := m.local.spawned && pos.Dist2(pk.Pos()) <= r*r
		switch {
		case !in:
			pk.inside = false
		case !pk.inside || m.now.Sub(pk.lastTouch) >= TouchRetry:
			pk.inside, pk.lastTouch = true, m.now
			dst = append(dst, id)
		}
	}
	slices.Sort(dst[n:])
	return dst
}
