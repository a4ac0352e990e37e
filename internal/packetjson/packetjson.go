// Package packetjson maps one dlmp packet to a JSON object and back, for the
// packet tools (dlmp decode, dlmp encode). It works on every packet of
// internal/wire generically, by reflection over the packet struct's exported
// fields and their json tags: this is a tool, not a hot path.
//
// The object's keys are, in this order: "packet" (the packet's name as the
// spec writes it, "PickupSync"), "packet_id", then every field under its json
// tag in struct order. Values:
//
//   - integers are JSON numbers, exact (a u64 token prints all its digits);
//   - f32 prints with the shortest representation that round-trips
//     (strconv.FormatFloat(v, 'g', -1, 32)); NaN, +Inf and -Inf print as the
//     strings "NaN", "Inf" and "-Inf", so a hide with garbage fields is still
//     valid JSON. NaN payload bits are not kept: the reader writes the quiet
//     NaN 0x7FC00000;
//   - a [N]byte field prints as a string up to the first NUL when it holds
//     text: valid UTF-8 without control characters but tab, newline and
//     carriage return, and only NULs after the first NUL (a label's text).
//     Any other content (a cookie, garbage) prints as {"hex": "..."}, the
//     bytes in hex without the trailing NULs, so nothing is lost;
//   - a []byte field is a payload: a hex string, lowercase ("" when empty);
//   - a string field, or a field whose type implements both
//     encoding.TextMarshaler and encoding.TextUnmarshaler (a chat line, a
//     player name), is a JSON string, or {"hex": "..."} when not UTF-8;
//   - other arrays and slices are JSON arrays, structs are nested objects.
//
// Reading ([Unmarshal]) is strict: an unknown key, a duplicate key, a value of
// the wrong JSON type or one that does not fit its field (a negative number
// into an unsigned field, 256 into a u8, a fraction into an integer, a string
// longer than its array) is an [*Error] naming the field. A missing field is
// zero. A length field — an integer field named <name>_len, <name>_length or
// <name>_count beside a field <name> holding text, a payload or a list — may be
// left out: it is computed from the content; when given it must agree with it.
// Reading checks no packet rule: wire.Marshal does that (CheckSend).
package packetjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"dlmp/internal/wire"
)

// Error is JSON that does not make a packet: which packet, which key, why.
type Error struct {
	Packet string // the packet's name; empty when it is not known yet
	Field  string // the key, with its path for nested values ("entries[2].x"); empty for the whole object
	Rule   string // what is wrong, with the value found
}

func (e *Error) Error() string {
	switch {
	case e.Packet == "" && e.Field == "":
		return e.Rule
	case e.Packet == "":
		return e.Field + ": " + e.Rule
	case e.Field == "":
		return e.Packet + ": " + e.Rule
	}
	return e.Packet + "." + e.Field + ": " + e.Rule
}

// Marshal returns p as one compact JSON object. It fails only when p is not a
// pointer to a struct or holds a field type the mapping does not support.
func Marshal(p wire.Packet) ([]byte, error) {
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil, &Error{Packet: p.Name(), Rule: fmt.Sprintf("packet type %T is not a pointer to a struct", p)}
	}
	b := []byte(`{"packet":`)
	b = appendString(b, p.Name())
	b = append(b, `,"packet_id":`...)
	b = strconv.AppendUint(b, uint64(p.ID()), 10)
	w := writer{packet: p.Name()}
	b, err := w.appendFields(b, v.Elem(), "", true)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// Unmarshal reads one JSON object and returns the packet it describes. The
// packet is selected by "packet" (its name) or "packet_id"; when both are
// given they must agree. No packet rule is checked.
func Unmarshal(data []byte) (wire.Packet, error) {
	members, err := readObject(data, "", "")
	if err != nil {
		return nil, err
	}
	p, err := selectPacket(members)
	if err != nil {
		return nil, err
	}
	if err := setFields(p, members); err != nil {
		return nil, err
	}
	return p, nil
}

// UnmarshalInto reads one JSON object into p, a pointer to a packet struct.
// A "packet" or "packet_id" key, when present, must name p.
func UnmarshalInto(data []byte, p wire.Packet) error {
	members, err := readObject(data, p.Name(), "")
	if err != nil {
		return err
	}
	if err := checkSelection(members, p); err != nil {
		return err
	}
	return setFields(p, members)
}

// setFields sets the fields of packet p from the object's members.
func setFields(p wire.Packet, members []member) error {
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return &Error{Packet: p.Name(), Rule: fmt.Sprintf("packet type %T is not a pointer to a struct", p)}
	}
	return reader{packet: p.Name()}.readFields(v.Elem(), members, "", true)
}

// selectPacket returns a new packet named by the "packet" and "packet_id"
// members.
func selectPacket(members []member) (wire.Packet, error) {
	var p wire.Packet
	if raw, ok := find(members, "packet"); ok {
		var name string
		if err := json.Unmarshal(raw, &name); err != nil {
			return nil, &Error{Field: "packet", Rule: "must be a string (the packet's name), got " + describe(raw)}
		}
		if p = wire.ByName(name); p == nil {
			return nil, &Error{Field: "packet", Rule: fmt.Sprintf("unknown packet name %q (known: %s)", name, knownNames())}
		}
	}
	if raw, ok := find(members, "packet_id"); ok {
		id, err := readPacketID(raw)
		if err != nil {
			return nil, err
		}
		if p == nil {
			if p = wire.New(id); p == nil {
				return nil, &Error{Field: "packet_id", Rule: fmt.Sprintf("unknown packet id %d (0x%02X)", id, id)}
			}
		}
	}
	if p == nil {
		return nil, &Error{Rule: `missing "packet" (the packet's name) and "packet_id": one selects the packet`}
	}
	return p, checkSelection(members, p)
}

// checkSelection checks that "packet" and "packet_id", when present, name p.
func checkSelection(members []member, p wire.Packet) error {
	if raw, ok := find(members, "packet"); ok {
		var name string
		if err := json.Unmarshal(raw, &name); err != nil {
			return &Error{Packet: p.Name(), Field: "packet", Rule: "must be a string (the packet's name), got " + describe(raw)}
		}
		if name != p.Name() {
			return &Error{Packet: p.Name(), Field: "packet", Rule: fmt.Sprintf("is %q, want %q", name, p.Name())}
		}
	}
	if raw, ok := find(members, "packet_id"); ok {
		id, err := readPacketID(raw)
		if err != nil {
			return err
		}
		if id != p.ID() {
			other := "an unknown packet"
			if q := wire.New(id); q != nil {
				other = q.Name()
			}
			return &Error{Packet: p.Name(), Field: "packet_id", Rule: fmt.Sprintf("is %d (0x%02X, %s), but %s is %d (0x%02X)", id, id, other, p.Name(), p.ID(), p.ID())}
		}
	}
	return nil
}

func readPacketID(raw json.RawMessage) (byte, error) {
	v := reflect.New(reflect.TypeFor[uint8]()).Elem()
	r := reader{}
	if err := r.readInt(v, raw, "packet_id"); err != nil {
		return 0, err
	}
	return byte(v.Uint()), nil
}

// knownNames lists the registered packets' names, sorted.
func knownNames() string {
	var names []string
	for _, id := range wire.IDs() {
		names = append(names, wire.New(id).Name())
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// describe names a raw JSON value's type for an error, with the value when short.
func describe(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	s := string(raw)
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "string " + s
	case '{':
		return "object " + s
	case '[':
		return "array " + s
	case 't', 'f':
		return "boolean " + s
	case 'n':
		return "null"
	}
	return "number " + s
}
