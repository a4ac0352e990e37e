package wire

// ClientAck (0x0E) acknowledges the Server → Client reliable event lane.
//
//	[u8 packet_id = 0x0E]
//	[u64 token]    // the sender's session_token
//	[u32 ack]      // every event_id ≤ ack has arrived (0 = none yet)
//	[u64 above]    // bit i set = event_id ack+2+i has arrived (ack+1 is missing by definition)
//	[u16 delay_ms] // how long the client held the newest arrival before this ack (RTT sample)
//
// Total: 23 bytes. Client → Server, not on a lane (unreliable): sent after
// any datagram that carried reliable events, at most once per client tick,
// and with keepalives. Every value is legal on the wire (bit 63 of above
// included): the only stateless check is the token's, which the session
// makes; an ack beyond what was sent is the lane's stateful check, dropped and
// counted there.
type ClientAck struct {
	Token   uint64 `json:"token"`
	Ack     uint32 `json:"ack"`
	Above   uint64 `json:"above"`
	DelayMs uint16 `json:"delay_ms"`
}

const (
	IDClientAck  = 0x0E
	ClientAckLen = 23
)

func init() { register(IDClientAck, func() Packet { return new(ClientAck) }) }

func (*ClientAck) ID() byte       { return IDClientAck }
func (*ClientAck) Name() string   { return "ClientAck" }
func (*ClientAck) Dir() Direction { return ClientToServer }
func (*ClientAck) Len() int       { return ClientAckLen }

func (p *ClientAck) Append(b []byte) []byte {
	b = append(b, IDClientAck)
	b = appendU64(b, p.Token)
	b = appendU32(b, p.Ack)
	b = appendU64(b, p.Above)
	return appendU16(b, p.DelayMs)
}

func (p *ClientAck) Parse(b []byte) (int, error) {
	if err := head(b, IDClientAck, ClientAckLen, "ClientAck"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.Token = c.u64()
	p.Ack = c.u32()
	p.Above = c.u64()
	p.DelayMs = c.u16()
	return ClientAckLen, nil
}

// CheckSend is the client's check before sending: every value is legal.
func (p *ClientAck) CheckSend() error { return nil }

// CheckRecv is the server's stateless check: every value is legal; the token
// is checked against the session, the ack against the lane.
func (p *ClientAck) CheckRecv() error { return nil }
