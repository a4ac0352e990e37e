package wire

import (
	"encoding/binary"
	"math"
)

// Rules shared by the per-player primitives of world.md (Label3D, Checkpoint,
// Blip, GangZone, ColshapeShape, ObjectState) and their one active contract:
// active = 1 shows or replaces, active = 0 hides and only the id matters, so
// every rule but "active is 0 or 1" applies to a show only. One exception,
// on the server's side: a Blip hide it sends keeps size and flags in range
// (decision 0015).

// Attach kinds: Label3D and Blip take 0..=2, ObjectState 0..=3.
const (
	AttachNone    = 0
	AttachPlayer  = 1
	AttachVehicle = 2
	AttachObject  = 3 // ObjectState only
)

// The checks below are cheap tests, most small enough to be inlined; only a
// failing value pays for the call that builds the error.

// checkActive checks the active flag of a primitive: 0 hides, 1 shows.
func checkActive(packet string, v uint8) error {
	if v > 1 {
		return checkBool(packet, "active", v)
	}
	return nil
}

// checkFlag checks a u8 flag that must be 0 or 1.
func checkFlag(packet, field string, v uint8) error {
	if v > 1 {
		return checkBool(packet, field, v)
	}
	return nil
}

// checkRGB checks a 0xRRGGBB color.
func checkRGB(packet, field string, v uint32) error {
	if v > 0xFFFFFF {
		return checkColor(packet, field, v)
	}
	return nil
}

// checkIn checks a position against world bounds, naming the fields.
func checkIn(packet, fx, fy, fz string, x, y, z float32) error {
	if inWorld(x, y, z) {
		return nil
	}
	return checkWorld(packet, fx, fy, fz, x, y, z)
}

// checkMax checks an enumerated u8 field against its highest value.
func checkMax(packet, field string, v, hi uint8) error {
	if v > hi {
		return errMax(packet, field, v, hi)
	}
	return nil
}

func errMax(packet, field string, v, hi uint8) error {
	return invalid(packet, field, "must be 0..=%d, got %d", hi, v)
}

// checkFinite checks that a float is neither NaN nor ±Inf.
func checkFinite(packet, field string, v float32) error {
	if math.Float32bits(v)&0x7F800000 == 0x7F800000 { // all exponent bits: NaN or ±Inf
		return errFinite(packet, field, v)
	}
	return nil
}

func errFinite(packet, field string, v float32) error {
	return invalid(packet, field, "must be a finite number, got %v", v)
}

// checkAbove0 checks a length in (0, hi]; NaN is rejected.
func checkAbove0(packet, field string, v, hi float32) error {
	if !(v > 0 && v <= hi) {
		return errAbove0(packet, field, v, hi)
	}
	return nil
}

func errAbove0(packet, field string, v, hi float32) error {
	return invalid(packet, field, "must be a number above 0 and at most %v, got %v", hi, v)
}

// checkAbs checks |v| ≤ hi; NaN is rejected.
func checkAbs(packet, field string, v, hi float32) error {
	if !(v >= -hi && v <= hi) {
		return errAbs(packet, field, v, hi)
	}
	return nil
}

func errAbs(packet, field string, v, hi float32) error {
	return invalid(packet, field, "must be a number within ±%v, got %v", hi, v)
}

// checkWorldXY checks a 2D point against the world bounds |x|, |y| ≤ 6000.
func checkWorldXY(packet, fx, fy string, x, y float32) error {
	if in(x, -WorldXY, WorldXY) && in(y, -WorldXY, WorldXY) {
		return nil
	}
	return errWorldXY(packet, fx, fy, x, y)
}

func errWorldXY(packet, fx, fy string, x, y float32) error {
	if !in(x, -WorldXY, WorldXY) {
		return invalid(packet, fx, "must be a number within ±6000 (world bounds), got %v", x)
	}
	return invalid(packet, fy, "must be a number within ±6000 (world bounds), got %v", y)
}

// le reads the fields of a packet at fixed offsets, once Parse has checked
// its length: with the slice cut to the packet's size, the compiler drops
// the bounds checks, which the cursor's consuming reads keep.
var le = binary.LittleEndian

// f32at reads a little-endian f32 from the front of b.
func f32at(b []byte) float32 { return math.Float32frombits(le.Uint32(b)) }
