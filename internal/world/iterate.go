package world

import "dlmp/internal/grid"

// EachPlayer calls f for every connected player, in id order.
func (w *World) EachPlayer(f func(p *Player)) {
	for _, p := range w.players {
		if p != nil {
			f(p)
		}
	}
}

// EachPickup calls f for every pickup, active or waiting for its respawn,
// in no particular order.
func (w *World) EachPickup(f func(pk *Pickup)) {
	for _, pk := range w.pickups {
		f(pk)
	}
}

// Scope is the pickup's virtual world and interior.
func (pk *Pickup) Scope() grid.Scope { return pk.scope }

// EachVehicle calls f for every vehicle, in id order.
func (w *World) EachVehicle(f func(v *Vehicle)) {
	for _, v := range w.ents.vehicles {
		if v != nil {
			f(v)
		}
	}
}
