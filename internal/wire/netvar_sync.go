package wire

// NetvarSync (0x30) is the network-vars Sync announce: the client's net
// channel is ready (docs/protocol.md, network-vars.md "Wire protocol").
//
//	[u8 packet_id = 0x30]
//	[u64 token]
//	[u16 attempt]  // 1..=20
//
// Total: 11 bytes. Client → Server, unreliable: retried every 3 s, up to 20
// attempts, until NetvarManifest arrives. The server drops and counts a zero
// token and an attempt outside 1..=20.
type NetvarSync struct {
	Token   uint64 `json:"token"`
	Attempt uint16 `json:"attempt"`
}

const (
	IDNetvarSync  = 0x30
	NetvarSyncLen = 11
)

func init() { register(IDNetvarSync, func() Packet { return new(NetvarSync) }) }

func (*NetvarSync) ID() byte       { return IDNetvarSync }
func (*NetvarSync) Name() string   { return "NetvarSync" }
func (*NetvarSync) Dir() Direction { return ClientToServer }
func (*NetvarSync) Len() int       { return NetvarSyncLen }

func (p *NetvarSync) Append(b []byte) []byte {
	b = append(b, IDNetvarSync)
	b = appendU64(b, p.Token)
	b = appendU16(b, p.Attempt)
	return b
}

func (p *NetvarSync) Parse(b []byte) (int, error) {
	if err := head(b, IDNetvarSync, NetvarSyncLen, "NetvarSync"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.Token = c.u64()
	p.Attempt = c.u16()
	return NetvarSyncLen, nil
}

// CheckSend is the client's check before sending.
func (p *NetvarSync) CheckSend() error { return p.check() }

// CheckRecv is the server's stateless check: what it drops and counts.
func (p *NetvarSync) CheckRecv() error { return p.check() }

func (p *NetvarSync) check() error {
	const pk = "NetvarSync"
	if err := checkToken(pk, p.Token); err != nil {
		return err
	}
	if p.Attempt == 0 || p.Attempt > MaxSyncAttempts {
		return invalid(pk, "attempt", "must be 1..=20, got %d", p.Attempt)
	}
	return nil
}

// MaxSyncAttempts is how many times a client announces (network-vars.md).
const MaxSyncAttempts = 20
