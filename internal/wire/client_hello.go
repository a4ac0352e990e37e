package wire

// ClientHello (0x01) opens a connection (docs/protocol.md).
//
//	[u8 packet_id = 0x01]
//	[u32 magic = 0x504D4C44] // "DLMP" on the wire
//	[u16 version]            // protocol version, 1
//	[u64 client_nonce]       // random per connection attempt, never 0
//	[u8 cookie[20]]          // zero in the first hello; HelloRetry's cookie, echoed
//	[u8 padding[1165]]       // all zero
//
// Total: 1200 bytes. Client → Server, control, the only packet without a
// token. It fills the datagram so that every answer before address
// validation (HelloRetry, Disconnect) is smaller: no amplification. The
// server drops, unanswered, a wrong magic, a zero client_nonce or a nonzero
// padding byte; the version and the cookie choose its answer, not a drop.
type ClientHello struct {
	Magic       uint32                  `json:"magic"`
	Version     uint16                  `json:"version"`
	ClientNonce uint64                  `json:"client_nonce"`
	Cookie      [CookieLen]byte         `json:"cookie"`
	Padding     [ClientHelloPadLen]byte `json:"-"` // zero; kept so Parse → Append gives the same bytes
}

const (
	IDClientHello     = 0x01
	ClientHelloLen    = MaxDatagram
	CookieLen         = 20 // u32 window + 16 bytes of HMAC-SHA256
	ClientHelloPadLen = ClientHelloLen - 35
)

func init() { register(IDClientHello, func() Packet { return new(ClientHello) }) }

func (*ClientHello) ID() byte       { return IDClientHello }
func (*ClientHello) Name() string   { return "ClientHello" }
func (*ClientHello) Dir() Direction { return ClientToServer }
func (*ClientHello) Len() int       { return ClientHelloLen }

func (p *ClientHello) Append(b []byte) []byte {
	b = append(b, IDClientHello)
	b = appendU32(b, p.Magic)
	b = appendU16(b, p.Version)
	b = appendU64(b, p.ClientNonce)
	b = append(b, p.Cookie[:]...)
	return append(b, p.Padding[:]...)
}

func (p *ClientHello) Parse(b []byte) (int, error) {
	if err := head(b, IDClientHello, ClientHelloLen, "ClientHello"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.Magic = c.u32()
	p.Version = c.u16()
	p.ClientNonce = c.u64()
	c.bytes(p.Cookie[:])
	c.bytes(p.Padding[:])
	return ClientHelloLen, nil
}

// CheckSend is the client's check before sending.
func (p *ClientHello) CheckSend() error { return p.check() }

// CheckRecv is the server's stateless check: what it drops unanswered. A
// version other than its own is answered (Disconnect version_mismatch), so it
// is not a rule here.
func (p *ClientHello) CheckRecv() error { return p.check() }

func (p *ClientHello) check() error {
	if p.Magic != ProtocolMagic {
		return invalid("ClientHello", "magic", "must be 0x%08X (\"DLMP\"), got 0x%08X", ProtocolMagic, p.Magic)
	}
	if p.ClientNonce == 0 {
		return invalid("ClientHello", "client_nonce", "must not be 0")
	}
	if p.Padding == [ClientHelloPadLen]byte{} {
		return nil
	}
	for i, v := range p.Padding {
		if v != 0 {
			return invalid("ClientHello", "padding", "must be all zero, got 0x%02X at byte %d", v, i)
		}
	}
	return nil
}
