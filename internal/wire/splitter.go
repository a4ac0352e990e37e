package wire

import "fmt"

// Splitter cuts a datagram into its packets, back to back, without
// allocating: it parses each packet into a scratch value of its type, one per
// packet id, reused from call to call. A packet it returns is valid until the
// next call that meets the same id. Not safe for concurrent use: each reading
// goroutine owns one.
type Splitter struct {
	scratch [256]Packet
}

// Next parses the packet at the front of b and returns it with its size.
// An unknown id or a packet that runs past the end of b is an error, and the
// rest of the datagram cannot be delimited (docs/protocol.md: it is dropped
// and counted). Next checks no value: the caller applies CheckRecv.
func (s *Splitter) Next(b []byte) (Packet, int, error) {
	if len(b) == 0 {
		return nil, 0, &Error{Packet: "packet", Field: "packet_id", Rule: "missing: empty input", Err: ErrTruncated}
	}
	p := s.scratch[b[0]]
	if p == nil {
		p = New(b[0])
		if p == nil {
			return nil, 0, &Error{Packet: "packet", Field: "packet_id", Rule: fmt.Sprintf("unknown packet id 0x%02X", b[0]), Err: ErrUnknown}
		}
		s.scratch[b[0]] = p
	}
	n, err := p.Parse(b)
	if err != nil {
		return nil, 0, err
	}
	return p, n, nil
}
