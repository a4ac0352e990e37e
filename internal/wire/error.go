package wire

import (
	"errors"
	"fmt"
)

// Kinds of error, for errors.Is.
var (
	ErrTruncated = errors.New("truncated")          // the input ends inside a packet
	ErrTrailing  = errors.New("trailing bytes")     // bytes follow the one packet expected
	ErrUnknown   = errors.New("unknown packet")     // no packet has this id
	ErrInvalid   = errors.New("invalid field")      // a field breaks a rule
	ErrMismatch  = errors.New("packet id mismatch") // Parse was given another packet's bytes
)

// Error is a rejected packet: which packet, which field, which rule.
type Error struct {
	Packet string // the packet's name, "PickupSync"
	Field  string // the field's spec name, "scale"; empty for the whole packet
	Rule   string // the rule it breaks, with the value found
	Err    error  // one of the kinds above
}

func (e *Error) Error() string {
	if e.Field == "" {
		return e.Packet + ": " + e.Rule
	}
	return e.Packet + "." + e.Field + ": " + e.Rule
}

func (e *Error) Unwrap() error { return e.Err }

// invalid returns an ErrInvalid error; the rule is formatted with args.
func invalid(packet, field, rule string, args ...any) error {
	return &Error{Packet: packet, Field: field, Rule: fmt.Sprintf(rule, args...), Err: ErrInvalid}
}

// head checks that b starts with packet id and holds at least n bytes.
func head(b []byte, id byte, n int, packet string) error {
	if len(b) == 0 {
		return &Error{Packet: packet, Field: "packet_id", Rule: "missing: empty input", Err: ErrTruncated}
	}
	if b[0] != id {
		return &Error{Packet: packet, Field: "packet_id", Rule: fmt.Sprintf("is 0x%02X, want 0x%02X", b[0], id), Err: ErrMismatch}
	}
	if len(b) < n {
		return &Error{Packet: packet, Rule: fmt.Sprintf("needs %d bytes, have %d", n, len(b)), Err: ErrTruncated}
	}
	return nil
}
