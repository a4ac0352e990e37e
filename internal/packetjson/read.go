package packetjson

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"reflect"
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
