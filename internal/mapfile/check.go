package mapfile

import (
	"math"
	"strconv"

	"dlmp/internal/wire"
)

// The checks every parser applies to what it decoded. Each returns nil or
// the field and the rule it breaks, with the value found.

func checkObjectModel(field string, id int) *fieldError {
	switch {
	case wire.IsObjectModel(id):
		return nil
	case wire.IsPedModel(id):
		return errField(field, "%d is a ped model (%d..%d), not an object model", id, wire.MinPed, wire.MaxPed)
	case wire.IsVehicleModel(id):
		return errField(field, "%d is a vehicle model (%d..%d), not an object model", id, wire.MinVehicle, wire.MaxVehicle)
	}
	return errField(field, "%d is not an object model of the model table", id)
}

func checkVehicleModel(field string, id int) *fieldError {
	if wire.IsVehicleModel(id) {
		return nil
	}
	return errField(field, "%d is not a vehicle model (%d..%d)", id, wire.MinVehicle, wire.MaxVehicle)
}

// checkPos checks a position against the world bounds, with maxXY for |x|
// and |y|; names are the three fields' names.
func checkPos(names *[3]string, p Vec3, maxXY float32) *fieldError {
	switch {
	case !(p.X >= -maxXY && p.X <= maxXY):
		return errField(names[0], "%g is outside the world bounds |x| ≤ %g", p.X, maxXY)
	case !(p.Y >= -maxXY && p.Y <= maxXY):
		return errField(names[1], "%g is outside the world bounds |y| ≤ %g", p.Y, maxXY)
	case !(p.Z >= MinZ && p.Z <= MaxZ):
		return errField(names[2], "%g is outside the world bounds z %d..%d", p.Z, MinZ, MaxZ)
	}
	return nil
}

func checkRot(names *[3]string, r Vec3) *fieldError {
	for i, v := range [3]float32{r.X, r.Y, r.Z} {
		if !(v >= -MaxRotation && v <= MaxRotation) {
			return errField(names[i], "%g is outside ±%d degrees", v, MaxRotation)
		}
	}
	return nil
}

func checkScale(field string, s float32) *fieldError {
	if !(s >= MinScale && s <= MaxScale) {
		return errField(field, "%g is outside %g..%g", s, MinScale, float32(MaxScale))
	}
	return nil
}

func checkRange(field string, v, lo, hi int) *fieldError {
	if v < lo || v > hi {
		return errField(field, "%d is outside %d..%d", v, lo, hi)
	}
	return nil
}

// parseFloat reads a finite float32.
func parseFloat(field, s string) (float32, *fieldError) {
	f, err := strconv.ParseFloat(s, 32)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, errField(field, "%q is out of the float32 range", s)
		}
		return 0, errField(field, "%q is not a number", s)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, errField(field, "%q is not a finite number", s)
	}
	return float32(f), nil
}

// parseInt reads an integer that fits an int32. A float with no fraction
// ("1.0", as some editors write ids) is accepted.
func parseInt(field, s string) (int, *fieldError) {
	n, err := strconv.ParseInt(s, 10, 32)
	if err == nil {
		return int(n), nil
	}
	f, ferr := strconv.ParseFloat(s, 64)
	if ferr == nil && f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32 {
		return int(f), nil
	}
	return 0, errField(field, "%q is not an integer", s)
}
