package wire

// NetvarResyncRequest (0x32) asks for the vars of entities just shown to the
// client: batched entity indices, bit-packed (docs/protocol.md; the bit
// layout is in the netvar package docs).
//
//	[u8 packet_id = 0x32]
//	[u64 token]
//	[u16 len]          // payload bytes, 1..=1189
//	[u8 payload[len]]
//
// Total: 11 + len bytes, at most one datagram. Client → Server, unreliable,
// repeated after 1 s without an answer. The server drops and counts a zero
// token, len 0 and len above 1189. Payload aliases the buffer given to Parse
// (decision 0020).
type NetvarResyncRequest struct {
	Token   uint64 `json:"token"`
	Payload []byte `json:"payload"`
}

const (
	IDNetvarResyncRequest        = 0x32
	NetvarResyncRequestHeaderLen = 11
	MaxNetvarRequestPayload      = MaxDatagram - NetvarResyncRequestHeaderLen
)

func init() { register(IDNetvarResyncRequest, func() Packet { return new(NetvarResyncRequest) }) }

func (*NetvarResyncRequest) ID() byte       { return IDNetvarResyncRequest }
func (*NetvarResyncRequest) Name() string   { return "NetvarResyncRequest" }
func (*NetvarResyncRequest) Dir() Direction { return ClientToServer }
func (p *NetvarResyncRequest) Len() int     { return NetvarResyncRequestHeaderLen + len(p.Payload) }

func (p *NetvarResyncRequest) Append(b []byte) []byte {
	b = append(b, IDNetvarResyncRequest)
	b = appendU64(b, p.Token)
	b = appendU16(b, uint16(len(p.Payload)))
	return append(b, p.Payload...)
}

func (p *NetvarResyncRequest) Parse(b []byte) (int, error) {
	const pk = "NetvarResyncRequest"
	if err := head(b, IDNetvarResyncRequest, NetvarResyncRequestHeaderLen, pk); err != nil {
		return 0, err
	}
	payload, n, err := parseFramed(b, 9, pk)
	if err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.Token = c.u64()
	p.Payload = payload
	return n, nil
}

// CheckSend is the client's check before sending.
func (p *NetvarResyncRequest) CheckSend() error { return p.check() }

// CheckRecv is the server's stateless check: what it drops and counts.
func (p *NetvarResyncRequest) CheckRecv() error { return p.check() }

func (p *NetvarResyncRequest) check() error {
	if err := checkToken("NetvarResyncRequest", p.Token); err != nil {
		return err
	}
	return checkPayloadLen("NetvarResyncRequest", len(p.Payload), MaxNetvarRequestPayload)
}
