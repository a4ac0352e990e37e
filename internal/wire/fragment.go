package wire

import "fmt"

// Fragment (0x0A) carries one piece of a reliable message too large for one
// datagram.
//
//	[u8 packet_id = 0x0A]
//	[u32 event_id]
//	[u8 last]          // 1 = the final fragment of the message, 0 = more follow
//	[u16 len]          // payload bytes, 1..=1192
//	[u8 payload[len]]
//
// Total: 8 + len bytes. Server → Client, reliable event lane. Each fragment
// takes its own consecutive event_id; the client concatenates the payloads of
// consecutive fragments up to the one with last = 1 and decodes the result as
// one packet, whose own event_id is that of its first fragment. A whole
// message is at most [MaxMessage] bytes. Both the server and the client
// decoder reject last other than 0 / 1, len 0 and len above 1192.
//
// Len (the wire field len) is len(Payload): Append writes it from the slice.
type Fragment struct {
	EventID uint32 `json:"event_id"`
	Last    uint8  `json:"last"`
	// Payload aliases the buffer given to Parse, so decoding does not
	// allocate: it is valid only while that buffer is.
	Payload []byte `json:"payload"`
}

const (
	IDFragment = 0x0A
	// FragmentHeaderLen is the size of a fragment without its payload.
	FragmentHeaderLen = 8
	// MaxFragmentPayload is the largest payload: a fragment fills one
	// datagram.
	MaxFragmentPayload = MaxDatagram - FragmentHeaderLen
	// MaxMessage is the largest reliable message, reassembled.
	MaxMessage = 65536
)

func init() { register(IDFragment, func() Packet { return new(Fragment) }) }

func (*Fragment) ID() byte       { return IDFragment }
func (*Fragment) Name() string   { return "Fragment" }
func (*Fragment) Dir() Direction { return ServerToClient }
func (p *Fragment) Len() int     { return FragmentHeaderLen + len(p.Payload) }

// Append writes len as uint16(len(p.Payload)); a longer payload is a
// programming error that CheckSend reports.
func (p *Fragment) Append(b []byte) []byte {
	b = append(b, IDFragment)
	b = appendU32(b, p.EventID)
	b = append(b, p.Last)
	b = appendU16(b, uint16(len(p.Payload)))
	return append(b, p.Payload...)
}

// Parse reads the header, then len payload bytes, and returns 8+len. The
// payload aliases b.
func (p *Fragment) Parse(b []byte) (int, error) {
	if err := head(b, IDFragment, FragmentHeaderLen, "Fragment"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	id := c.u32()
	last := c.u8()
	n := FragmentHeaderLen + int(c.u16())
	if len(b) < n {
		return 0, &Error{Packet: "Fragment", Field: "payload", Rule: fmt.Sprintf("len says %d bytes, have %d", n-FragmentHeaderLen, len(b)-FragmentHeaderLen), Err: ErrTruncated}
	}
	p.EventID, p.Last, p.Payload = id, last, b[FragmentHeaderLen:n:n]
	return n, nil
}

// CheckSend is the server's check before sending.
func (p *Fragment) CheckSend() error { return p.check() }

// CheckRecv is the client decoder's check: the fragment is dropped without an
// ack.
func (p *Fragment) CheckRecv() error { return p.check() }

func (p *Fragment) check() error {
	if err := checkBool("Fragment", "last", p.Last); err != nil {
		return err
	}
	if n := len(p.Payload); n == 0 || n > MaxFragmentPayload {
		return invalid("Fragment", "len", "must be 1..=%d, got %d", MaxFragmentPayload, n)
	}
	return nil
}
