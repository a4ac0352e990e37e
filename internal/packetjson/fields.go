package packetjson

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
)

// field is one JSON member of a struct.
type field struct {
	name  string // the json tag, or the Go name when there is none
	index []int  // for reflect.Value.FieldByIndex
	lenOf string // for a length field: the name of the field it measures
}

// reserved keys belong to the object, not to a field.
var reserved = map[string]bool{"packet": true, "packet_id": true}

// lengthSuffixes name a length field: "text_len" measures "text".
var lengthSuffixes = []string{"_len", "_length", "_count"}

// fieldsOf lists the JSON members of struct type t in struct order: the
// exported fields under their json tags, embedded untagged structs flattened,
// fields tagged "-" left out. top is true for the packet struct itself, where
// "packet" and "packet_id" are reserved.
func fieldsOf(t reflect.Type, top bool) ([]field, error) {
	var out []field
	if err := collect(t, nil, &out); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, f := range out {
		if seen[f.name] {
			return nil, fmt.Errorf("two fields of %s are named %q", t, f.name)
		}
		if top && reserved[f.name] {
			return nil, fmt.Errorf("field %q of %s uses a reserved key", f.name, t)
		}
		seen[f.name] = true
	}
	for i, f := range out {
		if !isInteger(t.FieldByIndex(f.index).Type.Kind()) {
			continue
		}
		for _, suf := range lengthSuffixes {
			base, ok := strings.CutSuffix(f.name, suf)
			if !ok || !seen[base] {
				continue
			}
			for _, g := range out {
				if g.name == base && measurable(t.FieldByIndex(g.index).Type) {
					out[i].lenOf = base
				}
			}
		}
	}
	return out, nil
}

func collect(t reflect.Type, prefix []int, out *[]field) error {
	for i := range t.NumField() {
		sf := t.Field(i)
		index := append(append([]int(nil), prefix...), i)
		tag := sf.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" && tag == "-" {
			continue
		}
		if sf.Anonymous && name == "" {
			ft := sf.Type
			if ft.Kind() == reflect.Struct {
				if err := collect(ft, index, out); err != nil {
					return err
				}
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		*out = append(*out, field{name: name, index: index})
	}
	return nil
}

func isInteger(k reflect.Kind) bool {
	switch k {
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint,
		reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		return true
	}
	return false
}

// measurable reports whether a length field can measure a field of type t.
func measurable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.String:
		return true
	case reflect.Array:
		return t.Elem().Kind() == reflect.Uint8
	}
	return false
}

// lengthOf is the length a length field holds for content v: the bytes up to
// the first NUL for text in an array, the length for a slice or a string.
func lengthOf(v reflect.Value) int {
	if v.Kind() == reflect.Array {
		for i := range v.Len() {
			if v.Index(i).Uint() == 0 {
				return i
			}
		}
	}
	return v.Len()
}

// textLen is the length of the text in raw: the bytes before the first NUL.
func textLen(raw []byte) int {
	if i := bytes.IndexByte(raw, 0); i >= 0 {
		return i
	}
	return len(raw)
}
