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
