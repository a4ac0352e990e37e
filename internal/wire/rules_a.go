package wire

// Rules shared by the packets of world.md part A (pickups, clock, weather,
// garages, waypoints). The helpers of rules.go stay as they are; new shared
// rules go here.

// WaypointXY is the bound of a map waypoint: |x|, |y| ≤ 3000 (PlayerWaypoint,
// SetWaypoint).
const WaypointXY = 3000

// checkWaypoint checks a map point against ±WaypointXY; NaN and ±Inf fail.
func checkWaypoint(packet string, x, y float32) error {
	if !in(x, -WaypointXY, WaypointXY) {
		return invalid(packet, "x", "must be a number within ±3000, got %v", x)
	}
	if !in(y, -WaypointXY, WaypointXY) {
		return invalid(packet, "y", "must be a number within ±3000, got %v", y)
	}
	return nil
}

// checkClientEvent checks a received Client → Server event id: ids on both
// reliable lanes start at 1, and 0 means "none", so no event carries 0.
// Only the receiving side checks it: the sender's lane writes the id into the
// encoded packet after the packet's own send checks.
func checkClientEvent(packet string, id uint32) error {
	if id == 0 {
		return invalid(packet, "event_id", "must not be 0 (event ids start at 1)")
	}
	return nil
}

// checkWaypointState checks a waypoint's active flag and, when it is 1, its
// point; the point of a removal is not looked at. The first test is the whole
// rule without building an error, small enough to inline into the decoders.
func checkWaypointState(packet string, active uint8, x, y float32) error {
	if active == 0 || active == 1 && in(x, -WaypointXY, WaypointXY) && in(y, -WaypointXY, WaypointXY) {
		return nil
	}
	return waypointError(packet, active, x, y)
}

// waypointError names the field of a waypoint that breaks a rule.
func waypointError(packet string, active uint8, x, y float32) error {
	if err := checkBool(packet, "active", active); err != nil {
		return err
	}
	if active == 0 {
		return nil
	}
	return checkWaypoint(packet, x, y)
}
