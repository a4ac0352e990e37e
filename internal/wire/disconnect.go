package wire

// Disconnect (0x04) ends a connection, from the server (docs/protocol.md).
//
//	[u8 packet_id = 0x04]
//	[u64 token]  // the session_token; before ServerHello, the client_nonce
//	[u8 reason]  // 1..=10 (the reason table of docs/protocol.md)
//
// Total: 10 bytes. Server → Client, control, sent once, best effort. Both
// sides reject a zero token and a reason outside 1..=10; the client also
// drops (statefully) a token that is not its own.
type Disconnect struct {
	Token  uint64 `json:"token"`
	Reason uint8  `json:"reason"`
}

// Disconnect reasons.
const (
	ReasonTimeout         = 1
	ReasonKicked          = 2
	ReasonBanned          = 3
	ReasonProtocolError   = 4
	ReasonSendQueueFull   = 5
	ReasonNoAcks          = 6
	ReasonServerShutdown  = 7
	ReasonVersionMismatch = 8
	ReasonServerFull      = 9
	ReasonQuit            = 10
)

const (
	IDDisconnect        = 0x04
	IDClientDisconnect  = 0x05
	DisconnectLen       = 10
	ClientDisconnectLen = 10
)

func init() {
	register(IDDisconnect, func() Packet { return new(Disconnect) })
}

func (*Disconnect) ID() byte       { return IDDisconnect }
func (*Disconnect) Name() string   { return "Disconnect" }
func (*Disconnect) Dir() Direction { return ServerToClient }
func (*Disconnect) Len() int       { return DisconnectLen }

func (p *Disconnect) Append(b []byte) []byte {
	return append(appendU64(append(b, IDDisconnect), p.Token), p.Reason)
}

func (p *Disconnect) Parse(b []byte) (int, error) {
	if err := head(b, IDDisconnect, DisconnectLen, "Disconnect"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.Token = c.u64()
	p.Reason = c.u8()
	return DisconnectLen, nil
}

// CheckSend is the server's check before sending.
func (p *Disconnect) CheckSend() error { return checkDisconnect("Disconnect", p.Token, p.Reason) }

// CheckRecv is the client decoder's check.
func (p *Disconnect) CheckRecv() error { return checkDisconnect("Disconnect", p.Token, p.Reason) }

func checkDisconnect(packet string, token uint64, reason uint8) error {
	if err := checkToken(packet, token); err != nil {
		return err
	}
	return checkReason(packet, reason)
}
