package packetjson

import (
	"math"
	"math/rand/v2"
	"reflect"
	"unicode/utf8"
)

// fill sets every exported field of struct v to a pseudo-random value that
// the mapping must carry exactly: no NaN (its payload bits are not kept),
// but ±Inf, -0 and denormals; text, garbage arrays, payloads and lists.
// Length fields are then set to agree with their content.
func fill(rng *rand.Rand, v reflect.Value) {
	fields, err := fieldsOf(v.Type(), false)
	if err != nil {
		panic(err) // a test fixture bug, reported by the caller's fieldsOf check
	}
	for _, f := range fields {
		fillValue(rng, v.FieldByIndex(f.index))
	}
	for _, f := range fields {
		if f.lenOf == "" {
			continue
		}
		n := lengthOf(v.FieldByIndex(fieldByName(fields, f.lenOf).index))
		lv := v.FieldByIndex(f.index)
		if lv.CanUint() {
			lv.SetUint(uint64(n))
		} else {
			lv.SetInt(int64(n))
		}
	}
}

func fieldByName(fields []field, name string) field {
	for _, f := range fields {
		if f.name == name {
			return f
		}
	}
	panic("no field " + name)
}

var specialFloats = []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e6, math.MaxFloat32, math.SmallestNonzeroFloat32, math.Inf(1), math.Inf(-1), 6000, -200}

func fillValue(rng *rand.Rand, v reflect.Value) {
	if isText(v.Type()) {
		text := randText(rng, 20)
		if rng.IntN(3) == 0 { // not UTF-8
			text = append(text, 0xFF, 0x00)
		}
		if err := unmarshalText(v, text); err != nil {
			panic(err)
		}
		return
	}
	switch k := v.Kind(); {
	case k == reflect.Bool:
		v.SetBool(rng.IntN(2) == 1)
	case v.CanUint():
		v.SetUint(randBits(rng, v.Type().Bits()))
	case v.CanInt():
		bits := v.Type().Bits()
		v.SetInt(int64(randBits(rng, bits)<<(64-bits)) >> (64 - bits))
	case k == reflect.Float32:
		for {
			f := float64(math.Float32frombits(rng.Uint32()))
			if rng.IntN(3) == 0 {
				f = specialFloats[rng.IntN(len(specialFloats))]
			}
			if !math.IsNaN(f) {
				v.SetFloat(f)
				return
			}
		}
	case k == reflect.Float64:
		for {
			f := math.Float64frombits(rng.Uint64())
			if rng.IntN(3) == 0 {
				f = specialFloats[rng.IntN(len(specialFloats))]
			}
			if !math.IsNaN(f) {
				v.SetFloat(f)
				return
			}
		}
	case k == reflect.String:
		v.SetString(string(randText(rng, 12)))
	case k == reflect.Array && v.Type().Elem().Kind() == reflect.Uint8:
		if rng.IntN(3) == 0 { // garbage: any bytes
			for i := range v.Len() {
				v.Index(i).SetUint(uint64(rng.IntN(256)))
			}
			return
		}
		text := randText(rng, v.Len()-1)
		for len(text) >= v.Len() {
			text = text[:len(text)-1]
		}
		v.SetZero()
		reflect.Copy(v, reflect.ValueOf(text))
	case k == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8:
		b := make([]byte, rng.IntN(20))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		v.SetBytes(b)
	case k == reflect.Array:
		for i := range v.Len() {
			fillValue(rng, v.Index(i))
		}
	case k == reflect.Slice:
		n := rng.IntN(4)
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := range n {
			fillValue(rng, v.Index(i))
		}
	case k == reflect.Struct:
		fill(rng, v)
	}
}

func randBits(rng *rand.Rand, bits int) uint64 {
	switch rng.IntN(4) {
	case 0:
		return 0
	case 1:
		return math.MaxUint64 >> (64 - bits)
	}
	return rng.Uint64() >> (64 - bits)
}

// randText returns up to max bytes of UTF-8 text without NUL, with quotes,
// backslashes, control characters and multi-byte runes.
func randText(rng *rand.Rand, max int) []byte {
	const alphabet = "aZ9 \"\\\n\t\x01\x7f<>&/"
	runes := []rune{'é', '€', '𝄞', 'ж'}
	var b []byte
	for n := rng.IntN(max + 1); len(b) < n; {
		if rng.IntN(4) == 0 {
			b = append(b, string(runes[rng.IntN(len(runes))])...)
		} else {
			b = append(b, alphabet[rng.IntN(len(alphabet))])
		}
	}
	for len(b) > max || len(b) > 0 && !utf8.Valid(b) {
		b = b[:len(b)-1]
	}
	return b
}
