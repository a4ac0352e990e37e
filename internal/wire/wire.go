// Package wire holds the codecs of every dlmp packet: the byte layouts of
// docs/protocol.md and ../spec/world.md, and the validation rules that go with them.
//
// Every packet is a struct with one field per wire field (JSON tags carry the
// spec's field names) and the methods of [Packet]:
//
//   - Append encodes without checking anything, so a test can build any bytes;
//   - Parse reads one packet from the front of a buffer and checks only the id
//     and the length: it never fails on a value, so a hide whose unused fields
//     are garbage still parses, and Parse followed by Append gives back the
//     same bytes;
//   - CheckSend holds the sending side's rules (the server's checks before it
//     sends a Server → Client packet, the client's before it sends a Client →
//     Server one);
//   - CheckRecv holds the receiving side's rules (the client decoder's for a
//     Server → Client packet: what the client drops without an ack; the
//     server's stateless checks for a Client → Server packet).
//
// All integers are little-endian, fields are packed, f32 is IEEE-754 single.
// Every error is an [*Error] naming the packet, the field and the rule.
// Nothing in this package allocates on a successful encode or decode.
// The package imports only the standard library.
package wire

import (
	"fmt"
)

// MaxDatagram is the payload budget of one UDP datagram: one or more packets
// back to back.
const MaxDatagram = 1200

// Direction says who sends a packet.
type Direction uint8

const (
	ServerToClient Direction = iota + 1
	ClientToServer
)

func (d Direction) String() string {
	switch d {
	case ServerToClient:
		return "Server → Client"
	case ClientToServer:
		return "Client → Server"
	}
	return fmt.Sprintf("Direction(%d)", d)
}

// Packet is what every packet type implements.
type Packet interface {
	// ID is the packet id, the first byte on the wire.
	ID() byte
	// Name is the packet's name as the spec writes it ("PickupSync").
	Name() string
	// Dir is who sends it.
	Dir() Direction
	// Len is the encoded size in bytes.
	Len() int
	// Append appends the encoding to b, checking nothing.
	Append(b []byte) []byte
	// Parse reads one packet from the front of b, checking the id and the
	// length only, and returns the number of bytes it used.
	Parse(b []byte) (int, error)
	// CheckSend applies the sending side's rules.
	CheckSend() error
	// CheckRecv applies the receiving side's rules.
	CheckRecv() error
}

var registry [256]func() Packet

// register makes New(id) return a fresh packet from mk. Each packet's file
// registers itself; registering an id twice is a programming error.
func register(id byte, mk func() Packet) {
	if registry[id] != nil {
		panic(fmt.Sprintf("wire: packet id 0x%02X registered twice", id))
	}
	registry[id] = mk
}

// New returns a new zero packet of the given id, or nil for an unknown id.
func New(id byte) Packet {
	if mk := registry[id]; mk != nil {
		return mk()
	}
	return nil
}

// IDs returns every known packet id in ascending order.
func IDs() []byte {
	var ids []byte
	for id, mk := range registry {
		if mk != nil {
			ids = append(ids, byte(id))
		}
	}
	return ids
}

// ByName returns a new zero packet whose Name is name, or nil.
func ByName(name string) Packet {
	for _, mk := range registry {
		if mk != nil {
			if p := mk(); p.Name() == name {
				return p
			}
		}
	}
	return nil
}

// Unmarshal decodes exactly one packet from b and applies the receiving
// side's rules: an unknown id, a short input and a trailing byte are errors.
// It allocates the packet; hot paths call Parse on a packet they own.
func Unmarshal(b []byte) (Packet, error) {
	if len(b) == 0 {
		return nil, &Error{Packet: "packet", Field: "packet_id", Rule: "missing: empty input", Err: ErrTruncated}
	}
	p := New(b[0])
	if p == nil {
		return nil, &Error{Packet: "packet", Field: "packet_id", Rule: fmt.Sprintf("unknown packet id 0x%02X", b[0]), Err: ErrUnknown}
	}
	n, err := p.Parse(b)
	if err != nil {
		return nil, err
	}
	if n != len(b) {
		return nil, &Error{Packet: p.Name(), Rule: fmt.Sprintf("%d trailing bytes after a %d-byte packet", len(b)-n, n), Err: ErrTrailing}
	}
	if err := p.CheckRecv(); err != nil {
		return nil, err
	}
	return p, nil
}

// Marshal applies the sending side's rules and returns the encoding.
func Marshal(p Packet) ([]byte, error) {
	if err := p.CheckSend(); err != nil {
		return nil, err
	}
	return p.Append(make([]byte, 0, p.Len())), nil
}
