package wire

// Rules shared by the per-player primitives of world.md (Label3D, Checkpoint,
// Blip, GangZone, ColshapeShape, ObjectState) and their one active contract:
// active = 1 shows or replaces, active = 0 hides and only the id matters, so
// every rule but "active is 0 or 1" applies to a show only.

// Attach kinds: Label3D and Blip take 0..=2, ObjectState 0..=3.
const (
	AttachNone    = 0
	AttachPlayer  = 1
	AttachVehicle = 2
	AttachObject  = 3 // ObjectState only
)

// checkActive checks the active flag of a primitive: 0 hides, 1 shows.
func checkActive(packet string, v uint8) error { return checkBool(packet, "active", v) }

// checkMax checks an enumerated u8 field against its highest value.
func checkMax(packet, field string, v, hi uint8) error {
	if v > hi {
		return invalid(packet, field, "must be 0..=%d, got %d", hi, v)
	}
	return nil
}

// checkFinite checks that a float is neither NaN nor ±Inf.
func checkFinite(packet, field string, v float32) error {
	if !finite(v) {
		return invalid(packet, field, "must be a finite number, got %v", v)
	}
	return nil
}

// checkAbove0 checks a length in (0, hi]; NaN is rejected.
func checkAbove0(packet, field string, v, hi float32) error {
	if !(v > 0 && v <= hi) {
		return invalid(packet, field, "must be a number above 0 and at most %v, got %v", hi, v)
	}
	return nil
}

// checkAbs checks |v| ≤ hi; NaN is rejected.
func checkAbs(packet, field string, v, hi float32) error {
	if !in(v, -hi, hi) {
		return invalid(packet, field, "must be a number within ±%v, got %v", hi, v)
	}
	return nil
}

// checkWorldXY checks a 2D point against the world bounds |x|, |y| ≤ 6000.
func checkWorldXY(packet, fx, fy string, x, y float32) error {
	if !in(x, -WorldXY, WorldXY) {
		return invalid(packet, fx, "must be a number within ±6000 (world bounds), got %v", x)
	}
	if !in(y, -WorldXY, WorldXY) {
		return invalid(packet, fy, "must be a number within ±6000 (world bounds), got %v", y)
	}
	return nil
}
