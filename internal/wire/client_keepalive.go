package wire

// ClientKeepalive (0x06) keeps an idle connection alive and asks for a
// round-trip sample (docs/protocol.md).
//
//	[u8 packet_id = 0x06]
//	[u64 token]
//	[u32 ping] // the client's millisecond clock, wrapping; echoed
//
// Total: 13 bytes. Client → Server, control. The server drops and counts a
// zero token; any ping is valid.
type ClientKeepalive struct {
	Token uint64 `json:"token"`
	Ping  uint32 `json:"ping"`
}

const (
	IDClientKeepalive  = 0x06
	IDServerKeepalive  = 0x09
	ClientKeepaliveLen = 13
	ServerKeepaliveLen = 5
)

func init() {
	register(IDClientKeepalive, func() Packet { return new(ClientKeepalive) })
}

func (*ClientKeepalive) ID() byte       { return IDClientKeepalive }
func (*ClientKeepalive) Name() string   { return "ClientKeepalive" }
func (*ClientKeepalive) Dir() Direction { return ClientToServer }
func (*ClientKeepalive) Len() int       { return ClientKeepaliveLen }

func (p *ClientKeepalive) Append(b []byte) []byte {
	return appendU32(appendU64(append(b, IDClientKeepalive), p.Token), p.Ping)
}

func (p *ClientKeepalive) Parse(b []byte) (int, error) {
	if err := head(b, IDClientKeepalive, ClientKeepaliveLen, "ClientKeepalive"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.Token = c.u64()
	p.Ping = c.u32()
	return ClientKeepaliveLen, nil
}

// CheckSend is the client's check before sending.
func (p *ClientKeepalive) CheckSend() error { return checkToken("ClientKeepalive", p.Token) }

// CheckRecv is the server's stateless check.
func (p *ClientKeepalive) CheckRecv() error { return checkToken("ClientKeepalive", p.Token) }
