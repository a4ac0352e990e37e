package packetjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
)

// maxExponent bounds the exponent of an integer literal, so "1e999999999"
// is rejected before math/big tries to build it.
const maxExponent = 40

// readInt sets integer field v from a JSON number that must be an exact
// integer within the field's range.
func (r reader) readInt(v reflect.Value, raw json.RawMessage, path string) error {
	lo, hi := intRange(v.Kind())
	span := fmt.Sprintf("%s..=%s (%s)", lo, hi, typeName(v.Kind()))
	if !isNumber(raw) {
		return r.fail(path, "must be an integer %s, got %s", span, describe(raw))
	}
	lit := string(raw)
	if i := strings.IndexAny(lit, "eE"); i >= 0 {
		if e, err := strconv.Atoi(strings.TrimPrefix(lit[i+1:], "+")); err != nil || e > maxExponent || e < -maxExponent {
			return r.fail(path, "must be an integer %s, got %s", span, lit)
		}
	}
	q, ok := new(big.Rat).SetString(lit)
	if !ok {
		return r.fail(path, "must be an integer %s, got %s", span, lit)
	}
	if !q.IsInt() {
		return r.fail(path, "must be an integer %s, got the fraction %s", span, lit)
	}
	n := q.Num()
	if n.Cmp(lo) < 0 || n.Cmp(hi) > 0 {
		return r.fail(path, "must be an integer %s, got %s", span, lit)
	}
	return setInt(v, n)
}

// readFloat sets float field v from a JSON number, or "NaN", "Inf", "-Inf".
func (r reader) readFloat(v reflect.Value, raw json.RawMessage, path string) error {
	bits := v.Type().Bits()
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		_ = json.Unmarshal(raw, &s)
		switch s {
		case "NaN":
			v.SetFloat(math.NaN())
			return nil
		case "Inf":
			v.SetFloat(math.Inf(1))
			return nil
		case "-Inf":
			v.SetFloat(math.Inf(-1))
			return nil
		}
	}
	if !isNumber(raw) {
		return r.fail(path, `must be a number or "NaN", "Inf", "-Inf", got %s`, describe(raw))
	}
	f, err := strconv.ParseFloat(string(raw), bits)
	if err != nil {
		return r.fail(path, "%s is out of range for f%d (write \"Inf\" for infinity)", raw, bits)
	}
	v.SetFloat(f)
	return nil
}

// isNumber reports whether raw is a JSON number literal.
func isNumber(raw json.RawMessage) bool {
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return false
	}
	var n json.Number
	return json.Unmarshal(raw, &n) == nil
}

func intRange(k reflect.Kind) (lo, hi *big.Int) {
	switch k {
	case reflect.Uint8:
		return big.NewInt(0), big.NewInt(math.MaxUint8)
	case reflect.Uint16:
		return big.NewInt(0), big.NewInt(math.MaxUint16)
	case reflect.Uint32:
		return big.NewInt(0), big.NewInt(math.MaxUint32)
	case reflect.Uint64, reflect.Uint:
		return big.NewInt(0), new(big.Int).SetUint64(math.MaxUint64)
	case reflect.Int8:
		return big.NewInt(math.MinInt8), big.NewInt(math.MaxInt8)
	case reflect.Int16:
		return big.NewInt(math.MinInt16), big.NewInt(math.MaxInt16)
	case reflect.Int32:
		return big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32)
	}
	return big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
}

func typeName(k reflect.Kind) string {
	switch k {
	case reflect.Uint8:
		return "u8"
	case reflect.Uint16:
		return "u16"
	case reflect.Uint32:
		return "u32"
	case reflect.Uint64, reflect.Uint:
		return "u64"
	case reflect.Int8:
		return "i8"
	case reflect.Int16:
		return "i16"
	case reflect.Int32:
		return "i32"
	}
	return "i64"
}

// setInt sets integer field v to n, which must fit.
func setInt(v reflect.Value, n *big.Int) error {
	lo, hi := intRange(v.Kind())
	if n.Cmp(lo) < 0 || n.Cmp(hi) > 0 {
		return errors.New("out of range for " + typeName(v.Kind()))
	}
	if v.CanUint() {
		v.SetUint(n.Uint64())
	} else {
		v.SetInt(n.Int64())
	}
	return nil
}

// intOf returns integer field v as an int64 (a u64 past MaxInt64 reads as -1,
// which no length equals).
func intOf(v reflect.Value) int64 {
	if v.CanUint() {
		if u := v.Uint(); u <= math.MaxInt64 {
			return int64(u)
		}
		return -1
	}
	return v.Int()
}
