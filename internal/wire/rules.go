package wire

import "math"

// World bounds (world.md): |x|, |y| ≤ 6000 and z from −200 to 4000.
const (
	WorldXY   = 6000
	WorldMinZ = -200
	WorldMaxZ = 4000
)

// finite reports whether v is neither NaN nor ±Inf.
func finite(v float32) bool {
	f := float64(v)
	return !math.IsNaN(f) && !math.IsInf(f, 0)
}

// in reports whether v is a number within [lo, hi].
func in(v float32, lo, hi float32) bool { return v >= lo && v <= hi } // false for NaN

// inWorld reports whether (x, y, z) is within world bounds; false for NaN.
func inWorld(x, y, z float32) bool {
	return in(x, -WorldXY, WorldXY) && in(y, -WorldXY, WorldXY) && in(z, WorldMinZ, WorldMaxZ)
}

// checkBool checks that a u8 flag is 0 or 1.
func checkBool(packet, field string, v uint8) error {
	if v > 1 {
		return invalid(packet, field, "must be 0 or 1, got %d", v)
	}
	return nil
}

// checkWorld checks a position against world bounds, naming the fields
// (x, y, z, or a_x, a_y, a_z, ...).
func checkWorld(packet, fx, fy, fz string, x, y, z float32) error {
	if !in(x, -WorldXY, WorldXY) {
		return invalid(packet, fx, "must be a number within ±6000 (world bounds), got %v", x)
	}
	if !in(y, -WorldXY, WorldXY) {
		return invalid(packet, fy, "must be a number within ±6000 (world bounds), got %v", y)
	}
	if !in(z, WorldMinZ, WorldMaxZ) {
		return invalid(packet, fz, "must be a number from -200 to 4000 (world bounds), got %v", z)
	}
	return nil
}

// checkColor checks a 0xRRGGBB color.
func checkColor(packet, field string, v uint32) error {
	if v > 0xFFFFFF {
		return invalid(packet, field, "must be 0xRRGGBB (at most 0xFFFFFF), got 0x%X", v)
	}
	return nil
}
