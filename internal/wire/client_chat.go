package wire

// ClientChat (0x07) is a line the player typed (docs/protocol.md).
//
//	[u8 packet_id = 0x07]
//	[u64 token]
//	[u32 event_id]  // position in the Client → Server Go-Back-N stream
//	[u8 len]        // text bytes, 1..=144
//	[u8 text[len]]  // UTF-8, no control characters
//
// Total: 14 + len bytes. Client → Server, Go-Back-N lane. The server accepts
// it in order and acks it, then drops and counts it when it breaks a rule.
//
// The text is held in a [ChatText] array (decision 0020): Parse copies it, so
// the packet never aliases the datagram, and any u8 len fits, so Parse never
// fails on a value; the rule len ≤ 144 is CheckRecv's.
type ClientChat struct {
	Token   uint64   `json:"token"`
	EventID uint32   `json:"event_id"`
	Text    ChatText `json:"text"`
}

const (
	IDClientChat        = 0x07
	ClientChatHeaderLen = 14 // the packet without its text
)

func init() { register(IDClientChat, func() Packet { return new(ClientChat) }) }

func (*ClientChat) ID() byte       { return IDClientChat }
func (*ClientChat) Name() string   { return "ClientChat" }
func (*ClientChat) Dir() Direction { return ClientToServer }
func (p *ClientChat) Len() int     { return ClientChatHeaderLen + int(p.Text.N) }

func (p *ClientChat) Append(b []byte) []byte {
	b = append(b, IDClientChat)
	b = appendU64(b, p.Token)
	b = appendU32(b, p.EventID)
	return p.Text.append(b)
}

func (p *ClientChat) Parse(b []byte) (int, error) {
	if err := head(b, IDClientChat, ClientChatHeaderLen, "ClientChat"); err != nil {
		return 0, err
	}
	n := ClientChatHeaderLen + int(b[ClientChatHeaderLen-1])
	if err := need(b, n, "ClientChat", "text"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.Token = c.u64()
	p.EventID = c.u32()
	p.Text.parse(&c)
	return n, nil
}

// CheckSend is the client's check before sending.
func (p *ClientChat) CheckSend() error { return p.check() }

// CheckRecv is the server's stateless check: the event is acked, then dropped
// and counted.
func (p *ClientChat) CheckRecv() error { return p.check() }

func (p *ClientChat) check() error {
	if err := checkToken("ClientChat", p.Token); err != nil {
		return err
	}
	return checkChatText("ClientChat", p.Text.Bytes())
}
