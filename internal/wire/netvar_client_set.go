package wire

// NetvarClientSet (0x35) sets one of the sender's :ClientOwned() vars: one
// bare var entry, bit-packed (docs/protocol.md; the bit layout is in the
// netvar package docs).
//
//	[u8 packet_id = 0x35]
//	[u64 token]
//	[u32 event_id]     // position in the Client → Server Go-Back-N stream
//	[u16 len]          // payload bytes, 1..=1185
//	[u8 payload[len]]
//
// Total: 15 + len bytes, at most one datagram. Client → Server, Go-Back-N
// lane. The server accepts it in order and acks it, then drops and counts a
// zero token, len 0 and len above 1185; the entry is the netvar package's.
// Payload aliases the buffer given to Parse (decision 0020).
type NetvarClientSet struct {
	Token   uint64 `json:"token"`
	EventID uint32 `json:"event_id"`
	Payload []byte `json:"payload"`
}

const (
	IDNetvarClientSet        = 0x35
	NetvarClientSetHeaderLen = 15
	MaxNetvarSetPayload      = MaxDatagram - NetvarClientSetHeaderLen
)

func init() { register(IDNetvarClientSet, func() Packet { return new(NetvarClientSet) }) }

func (*NetvarClientSet) ID() byte       { return IDNetvarClientSet }
func (*NetvarClientSet) Name() string   { return "NetvarClientSet" }
func (*NetvarClientSet) Dir() Direction { return ClientToServer }
func (p *NetvarClientSet) Len() int     { return NetvarClientSetHeaderLen + len(p.Payload) }

func (p *NetvarClientSet) Append(b []byte) []byte {
	b = append(b, IDNetvarClientSet)
	b = appendU64(b, p.Token)
	b = appendU32(b, p.EventID)
	b = appendU16(b, uint16(len(p.Payload)))
	return append(b, p.Payload...)
}

func (p *NetvarClientSet) Parse(b []byte) (int, error) {
	const pk = "NetvarClientSet"
	if err := head(b, IDNetvarClientSet, NetvarClientSetHeaderLen, pk); err != nil {
		return 0, err
	}
	payload, n, err := parseFramed(b, 13, pk)
	if err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.Token = c.u64()
	p.EventID = c.u32()
	p.Payload = payload
	return n, nil
}

// CheckSend is the client's check before sending.
func (p *NetvarClientSet) CheckSend() error { return p.check() }

// CheckRecv is the server's stateless check: the event is acked, then dropped
// and counted.
func (p *NetvarClientSet) CheckRecv() error { return p.check() }

func (p *NetvarClientSet) check() error {
	if err := checkToken("NetvarClientSet", p.Token); err != nil {
		return err
	}
	return checkPayloadLen("NetvarClientSet", len(p.Payload), MaxNetvarSetPayload)
}
