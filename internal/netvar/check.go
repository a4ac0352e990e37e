package netvar

import (
	"fmt"
	"math"
)

// check validates v (already normalized) for this codec and returns the
// value to store: the form the client will decode, so the delta guard and
// every reader agree. warn is a logged error after which the value is still
// stored (truncated or clamped); reject means the value is refused.
func (c codecSpec) check(v any) (out any, warn, reject error) {
	if v == nil {
		return nil, nil, nil
	}
	if c.enum != nil {
		for _, e := range c.enum {
			if Equal(e, v) {
				return e, nil, nil
			}
		}
		return nil, nil, fmt.Errorf("value %v is not in the enum %v", v, c.enum)
	}
	if n, signed, ok := c.intWidth(); ok {
		return checkInt(v, n, signed)
	}
	switch c.codec {
	case CodecAuto:
		return checkAuto(v)
	case CodecBool:
		if _, ok := v.(bool); ok {
			return v, nil, nil
		}
	case CodecBit:
		if f, ok := v.(float64); ok && (f == 0 || f == 1) {
			return v, nil, nil
		}
		if b, ok := v.(bool); ok {
			if b {
				return 1.0, nil, nil
			}
			return 0.0, nil, nil
		}
		return nil, nil, fmt.Errorf("Bit takes 0 or 1, got %v", v)
	case CodecFloat:
		if f, ok := v.(float64); ok {
			return float64(float32(f)), nil, nil
		}
	case CodecDouble:
		if _, ok := v.(float64); ok {
			return v, nil, nil
		}
	case CodecString:
		if s, ok := asString(v); ok {
			for i := 0; i < len(s); i++ {
				if s[i] == 0 {
					return s[:i], fmt.Errorf("String holds a NUL at byte %d of %d: truncated there", i, len(s)), nil
				}
			}
			return s, nil, nil
		}
	case CodecBoundedString:
		if s, ok := asString(v); ok {
			if len(s) > int(c.arg) {
				return s[:c.arg], fmt.Errorf("String(%d) given %d bytes: truncated to %d", c.arg, len(s), c.arg), nil
			}
			return s, nil, nil
		}
	case CodecData:
		var p []byte
		switch x := v.(type) {
		case []byte:
			p = x
		case string:
			p = []byte(x)
		default:
			return nil, nil, fmt.Errorf("Data takes bytes, got %T", v)
		}
		out := make([]byte, c.arg)
		copy(out, p)
		if len(p) > int(c.arg) {
			return out, fmt.Errorf("Data(%d) given %d bytes: truncated to %d", c.arg, len(p), c.arg), nil
		}
		return out, nil, nil
	case CodecVector:
		if x, ok := v.(Vector); ok {
			return x, nil, nil
		}
	case CodecAngle:
		if x, ok := v.(Angle); ok {
			return x, nil, nil
		}
	case CodecNormal:
		if x, ok := v.(Vector); ok {
			q := Vector{quantNormal(x.X), quantNormal(x.Y), quantNormal(x.Z)}
			if x.X < -1 || x.X > 1 || x.Y < -1 || x.Y > 1 || x.Z < -1 || x.Z > 1 {
				return q, fmt.Errorf("Normal component outside ±1 in %v: clamped", x), nil
			}
			return q, nil, nil
		}
	case CodecColor:
		if _, ok := v.(Color); ok {
			return v, nil, nil
		}
	case CodecEntity:
		if _, ok := v.(Ref); ok {
			return v, nil, nil
		}
	case CodecPlayer:
		if r, ok := v.(Ref); ok && r.Kind == KindPlayer && r.ID < MaxPlayers {
			return v, nil, nil
		}
		return nil, nil, fmt.Errorf("Player takes a player Ref with id < %d, got %v", MaxPlayers, v)
	case CodecTable:
		if _, ok := v.(Table); ok {
			return checkAuto(v)
		}
	case CodecCustom:
		return v, nil, nil
	}
	return nil, nil, fmt.Errorf("%s does not take a %T", c.codec, v)
}

func asString(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case []byte:
		return string(x), true
	}
	return "", false
}

func checkInt(v any, n uint, signed bool) (any, error, error) {
	f, ok := v.(float64)
	if !ok || math.IsNaN(f) {
		return nil, nil, fmt.Errorf("integer codec takes a number, got %v", v)
	}
	lo, hi := 0.0, math.Ldexp(1, int(n))-1
	if signed {
		lo, hi = -math.Ldexp(1, int(n)-1), math.Ldexp(1, int(n)-1)-1
	}
	var warn error
	if t := math.Trunc(f); t != f {
		warn = fmt.Errorf("%d-bit integer given %v: truncated to %v", n, f, t)
		f = t
	}
	if f < lo || f > hi {
		c := math.Max(lo, math.Min(hi, f))
		warn = fmt.Errorf("%d-bit integer given %v outside %v..%v: clamped to %v", n, f, lo, hi, c)
		f = c
	}
	return f, warn, nil
}

func quantNormal(f float32) float32 {
	f = max(-1, min(1, f))
	return float32(math.Round(float64(f)*normalScale)) / normalScale
}
