package wire

import "fmt"

// The network-vars messages frame an opaque, bit-packed payload defined by
// the netvar package (docs/protocol.md "Network vars"). Their Payload field
// aliases the buffer given to Parse, as Fragment's does (decision 0020): a
// payload can be 64 KiB, the netvar decoder consumes it at once, and a caller
// that keeps it past the buffer's life copies it.

const (
	// NetvarHeaderLen is the header of a Server → Client netvar message:
	// id, event_id, len.
	NetvarHeaderLen = 7
	// MaxNetvarPayload keeps a whole Server → Client message within
	// the 65536 bytes a reassembled message may hold.
	MaxNetvarPayload = 65536 - NetvarHeaderLen
)

// parseFramed reads the u16 len at b[at:] and checks that the payload is
// there; it returns the payload (aliasing b) and the packet's total size.
func parseFramed(b []byte, at int, packet string) ([]byte, int, error) {
	n := at + 2 + int(uint16(b[at])|uint16(b[at+1])<<8)
	if len(b) < n {
		return nil, 0, &Error{Packet: packet, Field: "payload", Rule: fmt.Sprintf("len says %d bytes in all, have %d", n, len(b)), Err: ErrTruncated}
	}
	return b[at+2 : n : n], n, nil
}

// netvarEvent is the shape of NetvarManifest, NetvarResync and NetvarUpdate.
type netvarEvent struct {
	EventID uint32 `json:"event_id"`
	// Payload aliases the buffer given to Parse; len is len(Payload).
	Payload []byte `json:"payload"`
}

func (p *netvarEvent) len() int { return NetvarHeaderLen + len(p.Payload) }

// appendTo writes the message; a payload above 65535 bytes is a programming
// error that CheckSend reports.
func (p *netvarEvent) appendTo(b []byte, id byte) []byte {
	b = append(b, id)
	b = appendU32(b, p.EventID)
	b = appendU16(b, uint16(len(p.Payload)))
	return append(b, p.Payload...)
}

func (p *netvarEvent) parse(b []byte, id byte, packet string) (int, error) {
	if err := head(b, id, NetvarHeaderLen, packet); err != nil {
		return 0, err
	}
	payload, n, err := parseFramed(b, 5, packet)
	if err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.EventID = c.u32()
	p.Payload = payload
	return n, nil
}

func (p *netvarEvent) check(packet string) error {
	return checkPayloadLen(packet, len(p.Payload), MaxNetvarPayload)
}
