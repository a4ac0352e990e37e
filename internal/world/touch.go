package world

import "dlmp/internal/grid"

// Pickup touches (world.md PickupTouch). The lane has checked the token and
// the order; the world accepts a touch only if the player is spawned and
// alive, the pickup exists and is active, it is in the player's scope and
// currently streamed to them (a touch of a pickup never shown, or already
// removed from their view, is refused even from a delayed packet), and the
// player's last accepted position is within the touch radius. Refusals are
// counted by reason and change nothing, so touches are idempotent.
//
// The touch radius (docs/decisions/0071-pickup-touch-radius.md) is
// TouchRadius meters, times the pickup's scale when it is above 1. The
// same radius bounds a static pickup's entry: its per-player latch clears
// when the player's last known position leaves it.

// TouchRadius is the touch radius of a pickup at scale 1, meters.
const TouchRadius = 3

// TouchRefusal is why a PickupTouch was refused.
type TouchRefusal uint8

const (
	TouchNotAlive TouchRefusal = iota // not spawned, or dead
	TouchNoPickup                     // no such pickup, or inactive (waiting for its respawn)
	TouchNotShown                     // not in the player's scope or not streamed to them
	TouchTooFar                       // last accepted position outside the touch radius
	TouchLatched                      // a static pickup already interacted with in this entry
	touchRefuseReasons
)

func (pk *Pickup) touchRadius() float32 { return TouchRadius * max(pk.scale, 1) }

// inTouch reports whether pos is within the pickup's touch radius.
func (pk *Pickup) inTouch(pos grid.Vec) bool {
	r := pk.touchRadius()
	return grid.Dist2(pos, pk.pos) <= r*r
}

func (w *World) pickupTouch(p *Player, id uint32) {
	pk := w.pickups[id]
	switch {
	case p.life != Alive || !p.hasPos:
		w.stats.TouchRefused[TouchNotAlive]++
		return
	case pk == nil || !pk.active:
		w.stats.TouchRefused[TouchNoPickup]++
		return
	case pk.scope != p.scope || !p.PickupShown(id):
		w.stats.TouchRefused[TouchNotShown]++
		return
	case !pk.inTouch(p.pos):
		w.stats.TouchRefused[TouchTooFar]++
		return
	}
	if pk.behavior == Static {
		for _, l := range p.latched {
			if l == id {
				w.stats.TouchRefused[TouchLatched]++
				return
			}
		}
		p.latched = append(p.latched, id)
	}
	w.gm.PickupInteract(PickupInteraction{Player: p, Pickup: id, Behavior: pk.behavior, Model: pk.model})
}

// clearLatches drops the static latches whose entry ended: the player's
// last known position left the radius (or the pickup left their scope, was
// deleted or collected).
func (w *World) clearLatches(p *Player) {
	kept := p.latched[:0]
	for _, id := range p.latched {
		if pk := w.pickups[id]; pk != nil && pk.active && pk.scope == p.scope && pk.inTouch(p.pos) {
			kept = append(kept, id)
		}
	}
	p.latched = kept
}
