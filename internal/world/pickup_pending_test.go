package world

import "testing"

// Pickups and vehicles left to show for lack of room are sent on the next
// tick to a player who stands (their views are not due), though the views
// are asked for ops left only after a reconcile that left some
// (Player.pickupsLeft, vehicleQuery.left).
func TestPendingPickupsAndVehiclesSentOnTheNextTick(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, at(0, 0))
	f.advance(tick)
	c.take()
	c.free = SendReserve + 2
	var pickups, vehicles []uint32
	for i := range 5 {
		pickups = append(pickups, f.pickup(PickupParams{Pos: at(float32(i), 3)}))
		vehicles = append(vehicles, uint32(f.vehicle(VehicleParams{Pos: at(float32(10*i), 20)})))
	}
	f.advance(tick) // the vehicles' announces: room for 2 ops in all
	c.free = 4096
	if p.pickups.Pending() == 0 || p.ent.vehiclesV.Pending() == 0 {
		t.Fatalf("ops left: pickups %d, vehicles %d; the test needs both", p.pickups.Pending(), p.ent.vehiclesV.Pending())
	}
	for range 2 {
		f.advance(tick)
	}
	for _, id := range pickups {
		if _, ok := p.pickups.Shown(id); !ok {
			t.Errorf("pickup %d not shown two ticks after the room came back", id)
		}
	}
	for _, id := range vehicles {
		if _, ok := p.ent.vehiclesV.Shown(id); !ok {
			t.Errorf("vehicle %d not shown two ticks after the room came back", id)
		}
	}
	if p.pickupsLeft || p.vehLast.left {
		t.Errorf("ops left still flagged (pickups %v, vehicles %v) after they were sent", p.pickupsLeft, p.vehLast.left)
	}
}
