package world

import (
	"fmt"

	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// Garages is the number of the game's garage doors: ids 0..=49.
const Garages = 50

// SetGarageOpen opens or closes the door of game garage id (0..=49). An
// actual change sends GarageDoors with the whole mask to every connected
// client (critical); repeating the current state sends nothing. New
// connections get the mask in ServerHello.
func (w *World) SetGarageOpen(id int, open bool) error {
	if id < 0 || id >= Garages {
		return &ArgError{Func: "set_garage_open", Arg: "id", Rule: fmt.Sprintf("must be 0..49, got %d", id)}
	}
	mask := w.garage &^ (1 << id)
	if open {
		mask |= 1 << id
	}
	if mask == w.garage {
		return nil
	}
	pkt := &wire.GarageDoors{Open: mask}
	if err := pkt.CheckSend(); err != nil {
		return argErr("set_garage_open", "id", err)
	}
	w.garage = mask
	w.sendAll(pkt, lane.Critical)
	return nil
}

// GarageOpen reports whether the door of garage id is open.
func (w *World) GarageOpen(id int) bool { return id >= 0 && id < Garages && w.garage&(1<<id) != 0 }
