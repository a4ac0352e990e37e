package pose

import "time"

// Move is a uniform linear movement in position and angles, as ObjectState
// runs it: from a start pose to a target over a duration. Angles move
// linearly as numbers, with no wrap: from rz 350 to 370 passes 360, from
// 350 to 10 turns back through 180.
type Move struct {
	From, To       Vec
	FromRot, ToRot Angles
	Duration       time.Duration // 0: the object is at its target
}

// At returns the pose after elapsed time: the start up to 0 and the target
// from Duration on (always, for a Duration of 0 or less).
func (m Move) At(elapsed time.Duration) (Vec, Angles) {
	if m.Duration <= 0 || elapsed >= m.Duration {
		return m.To, m.ToRot
	}
	if elapsed <= 0 {
		return m.From, m.FromRot
	}
	f := float64(elapsed) / float64(m.Duration)
	return m.From.Add(m.To.Sub(m.From).Scale(f)), Angles{
		RX: lerp(m.FromRot.RX, m.ToRot.RX, f),
		RY: lerp(m.FromRot.RY, m.ToRot.RY, f),
		RZ: lerp(m.FromRot.RZ, m.ToRot.RZ, f),
	}
}

// Left returns the time left to the target after elapsed time, what a
// repeated show carries as move_ms.
func (m Move) Left(elapsed time.Duration) time.Duration {
	return max(0, m.Duration-max(0, elapsed))
}

func lerp(a, b, f float64) float64 { return a + (b-a)*f }
