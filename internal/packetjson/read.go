package packetjson

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// member is one key of a JSON object with its raw value.
type member struct {
	key string
	raw json.RawMessage
}

// find returns the raw value of key.
func find(members []member, key string) (json.RawMessage, bool) {
	for _, m := range members {
		if m.key == key {
			return m.raw, true
		}
	}
	return nil, false
}

// readObject splits data, exactly one JSON object, into its members in
// order. A duplicate key is an error; packet and path name it.
func readObject(data []byte, packet, path string) ([]member, error) {
	fail := func(rule string, args ...any) error {
		return &Error{Packet: packet, Field: path, Rule: fmt.Sprintf(rule, args...)}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err == io.EOF {
		return nil, fail("empty input: want one JSON object")
	}
	if err != nil {
		return nil, fail("not JSON: %v", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fail("must be a JSON object, got %s", describe(data))
	}
	var members []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fail("not JSON: %v", err)
		}
		key := tok.(string) // the decoder only returns a string here
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fail("not JSON at key %q: %v", key, err)
		}
		if _, dup := find(members, key); dup {
			return nil, &Error{Packet: packet, Field: join(path, key), Rule: "key given twice"}
		}
		members = append(members, member{key, raw})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, fail("not JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			return nil, fail("more than one JSON value: want exactly one object")
		}
		return nil, fail("not JSON after the object: %v", err)
	}
	return members, nil
}

// reader fills a packet struct from JSON; packet names errors.
type reader struct{ packet string }

func (r reader) fail(path, rule string, args ...any) error {
	return &Error{Packet: r.packet, Field: path, Rule: fmt.Sprintf(rule, args...)}
}

// readFields sets the fields of struct v from members; a missing field stays
// zero and a missing length field is computed. At the top level "packet" and
// "packet_id" are not fields.
func (r reader) readFields(v reflect.Value, members []member, path string, top bool) error {
	fields, err := fieldsOf(v.Type(), top)
	if err != nil {
		return r.fail(path, "%v", err)
	}
	byName := map[string]field{}
	for _, f := range fields {
		byName[f.name] = f
	}
	for _, m := range members {
		if top && reserved[m.key] {
			continue
		}
		f, ok := byName[m.key]
		if !ok {
			return &Error{Packet: r.packet, Field: join(path, m.key), Rule: "unknown key (fields: " + names(fields) + ")"}
		}
		if err := r.readValue(v.FieldByIndex(f.index), m.raw, join(path, f.name)); err != nil {
			return err
		}
	}
	// Length fields last, once the content they measure is set.
	for _, f := range fields {
		if f.lenOf == "" {
			continue
		}
		content := v.FieldByIndex(byName[f.lenOf].index)
		want := lengthOf(content)
		lv := v.FieldByIndex(f.index)
		if _, given := find(members, f.name); !given {
			if err := setInt(lv, big.NewInt(int64(want))); err != nil {
				return r.fail(join(path, f.name), "the length of %s, %d, does not fit: %v", f.lenOf, want, err)
			}
			continue
		}
		if got := intOf(lv); got != int64(want) {
			return r.fail(join(path, f.name), "is %d, but %s holds %d", got, f.lenOf, want)
		}
	}
	return nil
}

func names(fields []field) string {
	var s []string
	for _, f := range fields {
		s = append(s, f.name)
	}
	return strings.Join(s, ", ")
}

func (r reader) readValue(v reflect.Value, raw json.RawMessage, path string) error {
	raw = bytes.TrimSpace(raw)
	if isText(v.Type()) && v.CanAddr() {
		b, err := r.readText(raw, path)
		if err != nil {
			return err
		}
		if err := unmarshalText(v, b); err != nil {
			return r.fail(path, "%v", err)
		}
		return nil
	}
	switch k := v.Kind(); {
	case k == reflect.Bool:
		switch string(raw) {
		case "true", "false":
			v.SetBool(string(raw) == "true")
			return nil
		}
		return r.fail(path, "must be true or false, got %s", describe(raw))
	case isInteger(k):
		return r.readInt(v, raw, path)
	case k == reflect.Float32 || k == reflect.Float64:
		return r.readFloat(v, raw, path)
	case k == reflect.String:
		b, err := r.readText(raw, path)
		if err != nil {
			return err
		}
		v.SetString(string(b))
		return nil
	case k == reflect.Array && v.Type().Elem().Kind() == reflect.Uint8:
		b, err := r.readText(raw, path)
		if err != nil {
			return err
		}
		if len(b) > v.Len() {
			return r.fail(path, "holds %d bytes, more than the %d of the field", len(b), v.Len())
		}
		if raw[0] == '"' && bytes.IndexByte(b, 0) >= 0 {
			return r.fail(path, `text ends at its first NUL: write {"hex": "..."} for bytes after one`)
		}
		v.SetZero()
		reflect.Copy(v, reflect.ValueOf(b))
		return nil
	case k == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8:
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return r.fail(path, "must be a hex string, got %s", describe(raw))
		}
		b, err := hex.DecodeString(s)
		if err != nil {
			return r.fail(path, "must be a hex string: %v", err)
		}
		v.SetBytes(b)
		return nil
	case k == reflect.Array || k == reflect.Slice:
		return r.readList(v, raw, path)
	case k == reflect.Struct:
		members, err := readObject(raw, r.packet, path)
		if err != nil {
			return err
		}
		return r.readFields(v, members, path, false)
	}
	return r.fail(path, "type %s is not supported by the packet tool", v.Type())
}

func (r reader) readList(v reflect.Value, raw json.RawMessage, path string) error {
	var items []json.RawMessage
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &items) != nil {
		return r.fail(path, "must be an array, got %s", describe(raw))
	}
	if v.Kind() == reflect.Array {
		if len(items) != v.Len() {
			return r.fail(path, "must hold exactly %d elements, got %d", v.Len(), len(items))
		}
	} else {
		v.Set(reflect.MakeSlice(v.Type(), len(items), len(items)))
	}
	for i, item := range items {
		if err := r.readValue(v.Index(i), item, fmt.Sprintf("%s[%d]", path, i)); err != nil {
			return err
		}
	}
	return nil
}

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

// readText reads a JSON string or {"hex": "..."}.
func (r reader) readText(raw json.RawMessage, path string) ([]byte, error) {
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, r.fail(path, "not a JSON string: %v", err)
		}
		if !utf8.ValidString(s) {
			return nil, r.fail(path, "is not UTF-8")
		}
		return []byte(s), nil
	}
	if len(raw) > 0 && raw[0] == '{' {
		members, err := readObject(raw, r.packet, path)
		if err != nil {
			return nil, err
		}
		h, ok := find(members, "hex")
		if len(members) != 1 || !ok {
			return nil, r.fail(path, `must be a string or {"hex": "..."}, got %s`, describe(raw))
		}
		var s string
		if err := json.Unmarshal(h, &s); err != nil {
			return nil, r.fail(path+".hex", "must be a hex string, got %s", describe(h))
		}
		b, err := hex.DecodeString(s)
		if err != nil {
			return nil, r.fail(path+".hex", "must be a hex string: %v", err)
		}
		return b, nil
	}
	return nil, r.fail(path, `must be a string or {"hex": "..."}, got %s`, describe(raw))
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
