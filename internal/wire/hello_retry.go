package wire

// HelloRetry (0x03) asks the client to prove its address (docs/protocol.md).
//
//	[u8 packet_id = 0x03]
//	[u64 client_nonce] // the ClientHello's, echoed
//	[u8 cookie[20]]    // u32 window + 16 bytes of HMAC-SHA256; opaque to the client
//
// Total: 29 bytes. Server → Client, control, in answer to a ClientHello with
// a zero or unverifiable cookie; the server keeps no state for it. The client
// drops one with a zero client_nonce or an all-zero cookie (and, statefully,
// one whose nonce is not its own).
type HelloRetry struct {
	ClientNonce uint64          `json:"client_nonce"`
	Cookie      [CookieLen]byte `json:"cookie"`
}

const (
	IDHelloRetry  = 0x03
	HelloRetryLen = 29
)

func init() { register(IDHelloRetry, func() Packet { return new(HelloRetry) }) }

func (*HelloRetry) ID() byte       { return IDHelloRetry }
func (*HelloRetry) Name() string   { return "HelloRetry" }
func (*HelloRetry) Dir() Direction { return ServerToClient }
func (*HelloRetry) Len() int       { return HelloRetryLen }

func (p *HelloRetry) Append(b []byte) []byte {
	b = append(b, IDHelloRetry)
	b = appendU64(b, p.ClientNonce)
	return append(b, p.Cookie[:]...)
}

func (p *HelloRetry) Parse(b []byte) (int, error) {
	if err := head(b, IDHelloRetry, HelloRetryLen, "HelloRetry"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.ClientNonce = c.u64()
	c.bytes(p.Cookie[:])
	return HelloRetryLen, nil
}

// CheckSend is the server's check before sending.
func (p *HelloRetry) CheckSend() error { return p.check() }

// CheckRecv is the client decoder's check.
func (p *HelloRetry) CheckRecv() error { return p.check() }

func (p *HelloRetry) check() error {
	if p.ClientNonce == 0 {
		return invalid("HelloRetry", "client_nonce", "must not be 0")
	}
	if p.Cookie == [CookieLen]byte{} {
		return invalid("HelloRetry", "cookie", "must not be all zero")
	}
	return nil
}
