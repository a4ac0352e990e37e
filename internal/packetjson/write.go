package packetjson

import (
	"encoding/hex"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// writer appends a packet struct's JSON; packet names errors.
type writer struct{ packet string }

// appendFields appends the members of struct v, each preceded by a comma when
// more is true (the object already has members), else the first without one.
func (w writer) appendFields(b []byte, v reflect.Value, path string, top bool) ([]byte, error) {
	fields, err := fieldsOf(v.Type(), top)
	if err != nil {
		return nil, &Error{Packet: w.packet, Field: path, Rule: err.Error()}
	}
	for i, f := range fields {
		if top || i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, f.name)
		b = append(b, ':')
		if b, err = w.appendValue(b, v.FieldByIndex(f.index), join(path, f.name)); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func (w writer) appendValue(b []byte, v reflect.Value, path string) ([]byte, error) {
	if isText(v.Type()) && v.CanAddr() {
		text, err := marshalText(v)
		if err != nil {
			return nil, &Error{Packet: w.packet, Field: path, Rule: "MarshalText: " + err.Error()}
		}
		if utf8.Valid(text) {
			return appendString(b, string(text)), nil
		}
		return appendHexObject(b, text), nil
	}
	switch v.Kind() {
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool()), nil
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint:
		return strconv.AppendUint(b, v.Uint(), 10), nil
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		return strconv.AppendInt(b, v.Int(), 10), nil
	case reflect.Float32:
		return appendFloat(b, v.Float(), 32), nil
	case reflect.Float64:
		return appendFloat(b, v.Float(), 64), nil
	case reflect.String:
		s := v.String()
		if utf8.ValidString(s) {
			return appendString(b, s), nil
		}
		return appendHexObject(b, []byte(s)), nil
	case reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			raw := make([]byte, v.Len())
			reflect.Copy(reflect.ValueOf(raw), v)
			return appendText(b, raw), nil
		}
		return w.appendList(b, v, path)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			b = append(b, '"')
			b = hex.AppendEncode(b, v.Bytes())
			return append(b, '"'), nil
		}
		return w.appendList(b, v, path)
	case reflect.Struct:
		b = append(b, '{')
		b, err := w.appendFields(b, v, path, false)
		if err != nil {
			return nil, err
		}
		return append(b, '}'), nil
	}
	return nil, &Error{Packet: w.packet, Field: path, Rule: fmt.Sprintf("type %s is not supported by the packet tool", v.Type())}
}

func (w writer) appendList(b []byte, v reflect.Value, path string) ([]byte, error) {
	b = append(b, '[')
	for i := range v.Len() {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = w.appendValue(b, v.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// appendFloat appends f as the shortest number that round-trips at bitSize,
// or as the string "NaN", "Inf" or "-Inf".
func appendFloat(b []byte, f float64, bitSize int) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(b, `"Inf"`...)
	case math.IsInf(f, -1):
		return append(b, `"-Inf"`...)
	}
	return strconv.AppendFloat(b, f, 'g', -1, bitSize)
}

// appendText appends the content of a [N]byte field: a string up to the
// first NUL when it reads as text (see isTextual) and the rest is NUL, else
// the hex object. So a label prints as a string and a cookie as hex.
func appendText(b []byte, raw []byte) []byte {
	n := textLen(raw)
	if isTextual(raw[:n]) && allZero(raw[n:]) {
		return appendString(b, string(raw[:n]))
	}
	return appendHexObject(b, trimZeros(raw))
}

// isTextual reports whether b is UTF-8 text: no control character but tab,
// newline and carriage return.
func isTextual(b []byte) bool {
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7F {
			return false
		}
	}
	return utf8.Valid(b)
}

// appendHexObject appends {"hex":"..."}.
func appendHexObject(b []byte, raw []byte) []byte {
	b = append(b, `{"hex":"`...)
	b = hex.AppendEncode(b, raw)
	return append(b, `"}`...)
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

func trimZeros(b []byte) []byte {
	for len(b) > 0 && b[len(b)-1] == 0 {
		b = b[:len(b)-1]
	}
	return b
}

// appendString appends s, valid UTF-8, as a JSON string. Unlike
// encoding/json it leaves <, > and & alone: the output is read by people.
func appendString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\r':
			b = append(b, `\r`...)
		case c == '\t':
			b = append(b, `\t`...)
		case c < 0x20 || c == 0x7F:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// join extends a member path: "" + "x" = "x", "a[1]" + "x" = "a[1].x".
func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
