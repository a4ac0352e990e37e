package mapfile

import (
	"fmt"
	"math"
	"strconv"
)

// argReader reads the arguments of one SA-MP call. Like attrReader, the
// first bad argument sticks in err.
type argReader struct {
	call *sampCall
	args [][]byte
	err  *fieldError
}

// field names argument i (0-based) as "arg 3 (y)".
func (a *argReader) field(i int) string {
	return fmt.Sprintf("arg %d (%s)", i+1, a.call.args[i])
}

func (a *argReader) fail(i int, format string, args ...any) {
	if a.err == nil {
		a.err = &fieldError{a.field(i), fmt.Sprintf(format, args...)}
	}
}

func (a *argReader) check(i int, err *fieldError) {
	if a.err == nil && err != nil {
		a.err = &fieldError{a.field(i), err.rule}
	}
}

// num reads argument i as a numeric literal, or def when the call has fewer
// arguments.
func (a *argReader) num(i int, def float64) (float64, bool) {
	if a.err != nil {
		return def, false
	}
	if i >= len(a.args) {
		return def, true
	}
	v, isInt, ok := numericLiteral(a.args[i])
	if !ok {
		a.fail(i, "%q is not a numeric literal", a.args[i])
		return def, false
	}
	return v, isInt
}

func (a *argReader) int(i int, def int) int {
	v, isInt := a.num(i, float64(def))
	if a.err != nil {
		return def
	}
	if !isInt || v < math.MinInt32 || v > math.MaxInt32 {
		a.fail(i, "%q is not an integer", a.args[i])
		return def
	}
	return int(v)
}

func (a *argReader) float(i int, def float32) float32 {
	v, _ := a.num(i, float64(def))
	if a.err != nil {
		return def
	}
	if v > math.MaxFloat32 || v < -math.MaxFloat32 {
		a.fail(i, "%q is out of the float32 range", a.args[i])
		return def
	}
	return float32(v)
}

func (a *argReader) vec(i int) Vec3 {
	return Vec3{a.float(i, 0), a.float(i+1, 0), a.float(i+2, 0)}
}

var xyzNames = [3]string{"x", "y", "z"}

// checkVec keeps the error of checkPos or checkRot, called with xyzNames,
// on the arguments i, i+1, i+2.
func (a *argReader) checkVec(i int, err *fieldError) {
	if a.err != nil || err == nil {
		return
	}
	for k, n := range xyzNames {
		if err.field == n {
			a.err = &fieldError{a.field(i + k), err.rule}
			return
		}
	}
}

// object reads CreateObject(modelid, x, y, z, rx, ry, rz, drawdistance) and
// CreateDynamicObject(modelid, x, y, z, rx, ry, rz, worldid, interiorid,
// playerid, streamdistance, drawdistance, ...).
func (a *argReader) object(line int) (Object, *fieldError) {
	o := Object{Line: line, Scale: 1, Collisions: true, Alpha: 255, Breakable: true}
	o.Model = a.int(0, 0)
	if a.err == nil {
		a.check(0, checkObjectModel("", o.Model))
	}
	o.Pos = a.vec(1)
	o.Rot = a.vec(4)
	if a.call.name == "CreateObject" {
		o.DrawDistance = a.float(7, 0)
	} else {
		o.World = a.int(7, AllWorlds)
		o.Interior = a.int(8, AllInteriors)
		o.StreamDistance = a.float(10, 0)
		o.DrawDistance = a.float(11, 0)
	}
	if a.err != nil {
		return o, a.err
	}
	a.checkVec(1, checkPos(&xyzNames, o.Pos, MaxXY))
	a.checkVec(4, checkRot(&xyzNames, o.Rot))
	if a.call.name == "CreateDynamicObject" {
		a.check(7, checkRange("", o.World, AllWorlds, MaxWorld))
		a.check(8, checkRange("", o.Interior, AllInteriors, MaxInterior))
	}
	draw := 7
	if a.call.name == "CreateDynamicObject" {
		draw = 11
		if o.StreamDistance < 0 {
			a.fail(10, "%g is below 0", o.StreamDistance)
		}
	}
	if o.DrawDistance < 0 {
		a.fail(draw, "%g is below 0", o.DrawDistance)
	}
	return o, a.err
}

// pickup reads AddStaticPickup / CreatePickup(model, type, x, y, z,
// virtualworld); the kind follows from the model.
func (a *argReader) pickup(line int) (Pickup, *fieldError) {
	p := Pickup{Line: line}
	p.Model = a.int(0, 0)
	if a.err == nil {
		a.check(0, checkObjectModel("", p.Model))
	}
	p.SAMPType = a.int(1, 0)
	p.Pos = a.vec(2)
	p.World = a.int(5, 0)
	if a.err != nil {
		return p, a.err
	}
	p.Kind, p.Weapon = pickupKind(p.Model)
	a.check(1, checkRange("", p.SAMPType, 0, math.MaxInt32))
	a.checkVec(2, checkPos(&xyzNames, p.Pos, MaxPickupXY))
	a.check(5, checkRange("", p.World, AllWorlds, MaxWorld))
	return p, a.err
}

// removal reads RemoveBuildingForPlayer(playerid, modelid, x, y, z, radius);
// playerid is not read.
func (a *argReader) removal(line int) (Removal, *fieldError) {
	r := Removal{Line: line}
	r.Model = a.int(1, 0)
	r.Pos = a.vec(2)
	r.Radius = a.float(5, 0)
	if a.err != nil {
		return r, a.err
	}
	if r.Model != -1 {
		a.check(1, checkObjectModel("", r.Model))
	}
	if !(r.Radius >= 0 && r.Radius <= MaxRadius) {
		a.fail(5, "%g is outside 0..%d", r.Radius, MaxRadius)
	}
	// The point may stand anywhere: a removal centered at 0,0,0 with a
	// radius of 10000 is the usual "everywhere".
	return r, a.err
}

// numericLiteral parses a Pawn numeric literal: an optional sign, then a
// decimal integer, a hexadecimal 0x integer or a decimal float with an
// optional exponent. isInt reports an integer literal.
func numericLiteral(b []byte) (v float64, isInt, ok bool) {
	s := string(b)
	body := s
	if len(body) > 0 && (body[0] == '-' || body[0] == '+') {
		body = body[1:]
	}
	if len(body) == 0 {
		return 0, false, false
	}
	if len(body) > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X') {
		n, err := strconv.ParseInt(body[2:], 16, 64)
		if err != nil || !allHex(body[2:]) {
			return 0, false, false
		}
		if s[0] == '-' {
			n = -n
		}
		return float64(n), true, true
	}
	digits, dot := 0, false
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot:
			dot = true
		case (c == 'e' || c == 'E') && digits > 0:
			exp := body[i+1:]
			if len(exp) > 0 && (exp[0] == '-' || exp[0] == '+') {
				exp = exp[1:]
			}
			if len(exp) == 0 || !allDigits(exp) {
				return 0, false, false
			}
			f, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsInf(f, 0) {
				return 0, false, false
			}
			return f, false, true
		default:
			return 0, false, false
		}
	}
	if digits == 0 {
		return 0, false, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, false, false
	}
	return f, !dot, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func allHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if _, ok := unhex(s[i]); !ok {
			return false
		}
	}
	return true
}
