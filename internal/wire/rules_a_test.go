package wire

import "math"

// Float values for the rule cases of part A's packets.
var (
	fNaN = float32(math.NaN())
	fInf = float32(math.Inf(1))
)

// justPast returns the float32 next to bound, away from zero: the first
// value past a bound.
func justPast(bound float32) float32 {
	if bound < 0 {
		return math.Nextafter32(bound, -fInf)
	}
	return math.Nextafter32(bound, fInf)
}

// towardZero returns the float32 next to bound, toward zero: the first
// value below a positive lower bound.
func towardZero(bound float32) float32 { return math.Nextafter32(bound, 0) }

// waypointCases are the rules of a waypoint's active flag and point, for
// PlayerWaypoint and SetWaypoint: each bound accepted, the float32 just past
// it, NaN and ±Inf rejected with active = 1, and a removal with garbage
// coordinates accepted.
func waypointCases(set func(p Packet, active uint8, x, y float32)) []ruleCase {
	c := func(name string, active uint8, x, y float32, field string) ruleCase {
		return ruleCase{name, func(p Packet) { set(p, active, x, y) }, field}
	}
	return []ruleCase{
		c("active 0", 0, 0, 0, ""),
		c("active 1", 1, 0, 0, ""),
		c("active 2", 2, 0, 0, "active"),
		c("active 255", 255, 0, 0, "active"),
		c("x 3000", 1, 3000, 0, ""),
		c("x -3000", 1, -3000, 0, ""),
		c("x past 3000", 1, justPast(3000), 0, "x"),
		c("x past -3000", 1, justPast(-3000), 0, "x"),
		c("x NaN", 1, fNaN, 0, "x"),
		c("x +Inf", 1, fInf, 0, "x"),
		c("x -Inf", 1, -fInf, 0, "x"),
		c("y 3000", 1, 0, 3000, ""),
		c("y -3000", 1, 0, -3000, ""),
		c("y past 3000", 1, 0, justPast(3000), "y"),
		c("y past -3000", 1, 0, justPast(-3000), "y"),
		c("y NaN", 1, 0, fNaN, "y"),
		c("y +Inf", 1, 0, fInf, "y"),
		c("y -Inf", 1, 0, -fInf, "y"),
		c("removal with NaN garbage", 0, fNaN, fNaN, ""),
		c("removal with ±Inf garbage", 0, fInf, -fInf, ""),
		c("removal far outside", 0, 1e30, -1e30, ""),
		c("active 2 with NaN", 2, fNaN, fNaN, "active"),
	}
}
