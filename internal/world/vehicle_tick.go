package world

import "dlmp/internal/wire"

// The vehicles' per-tick passes, change-driven
// (docs/decisions/0410-change-driven-vehicle-ticks.md).
//
// The VehicleMoves: the vehicles a driver moved are listed as they move
// (driverSync), so that encodeVehicleMoves reads those and the ones it
// encoded on the tick before, not every vehicle, and sendVehicleMoves
// reads no viewer's shown vehicles on a tick without a move. Issue 4's
// benchmark (1000 parked vehicles, ~4.4 shown to each of 1000 players)
// paid ~5,400 dependent loads a tick for them to find nothing.
//
// The respawns: the scan of every vehicle for one idle past its delay
// runs only while some vehicle has a delay (the benchmark's have none).

// vehicleTick is the tick's moved vehicles and encoded moves, and the
// count of vehicles with a respawn delay.
type vehicleTick struct {
	moved      []*Vehicle // moved by a driver since the last encode, each once (Vehicle.moved)
	encoded    []*Vehicle // the vehicles whose move the last encode wrote (Vehicle.move)
	respawners int        // vehicles with a respawn delay (Vehicle.respawn > 0)
	reads      uint64     // vehicles read by the encodes, sends and respawn scans (tests and benchmarks)
}

// vehicleMoved notes that a driver moved v this tick.
func (w *World) vehicleMoved(v *Vehicle) {
	if !v.moved {
		v.moved = true
		w.prims.vtick.moved = append(w.prims.vtick.moved, v)
	}
}

// encodeVehicleMoves encodes this tick's VehicleMove of every vehicle a
// driver moved, and forgets the moves of the tick before.
func (w *World) encodeVehicleMoves() {
	vm := &w.prims.vtick
	for _, v := range vm.encoded {
		v.move = v.move[:0]
	}
	vm.reads += uint64(len(vm.encoded) + len(vm.moved))
	vm.encoded = vm.encoded[:0]
	for i, v := range vm.moved {
		vm.moved[i] = nil
		v.moved = false
		if w.ents.vehicles[v.id] != v {
			continue // deleted since it moved
		}
		m := wire.VehicleMove{Seq: w.ents.tick, VehicleID: v.id, X: v.pos.X, Y: v.pos.Y, Z: v.pos.Z,
			QX: v.rot.X, QY: v.rot.Y, QZ: v.rot.Z, QW: v.rot.W, VX: v.vel.X, VY: v.vel.Y, VZ: v.vel.Z, Health: v.health}
		if m.CheckSend() == nil {
			v.move = m.Append(v.move)
			vm.encoded = append(vm.encoded, v)
		}
	}
	vm.moved = vm.moved[:0]
}

// sendVehicleMoves sends q the VehicleMove of every shown vehicle that moved
// this tick, except the one q drives; nothing is read on a tick without a
// move.
func (w *World) sendVehicleMoves(q *Player) {
	vm := &w.prims.vtick
	if len(vm.encoded) == 0 {
		return
	}
	vm.reads += uint64(len(q.ent.shownV))
	for _, id := range q.ent.shownV {
		if v := w.ents.vehicles[id]; v != nil && len(v.move) > 0 && v.driver != q {
			q.conn.SendUnreliable(v.move)
		}
	}
}
