package wire

// ServerAck (0x0F) acknowledges the Client → Server Go-Back-N lane.
//
//	[u8 packet_id = 0x0F]
//	[u32 ack] // the highest client event_id accepted in order (0 = none)
//
// Total: 5 bytes. Server → Client, not on a lane (unreliable), repeated on
// every datagram that follows client events until acked again. Every value
// is legal on the wire; an ack beyond what the client sent is the client
// lane's stateful check.
type ServerAck struct {
	Ack uint32 `json:"ack"`
}

const (
	IDServerAck  = 0x0F
	ServerAckLen = 5
)

func init() { register(IDServerAck, func() Packet { return new(ServerAck) }) }

func (*ServerAck) ID() byte       { return IDServerAck }
func (*ServerAck) Name() string   { return "ServerAck" }
func (*ServerAck) Dir() Direction { return ServerToClient }
func (*ServerAck) Len() int       { return ServerAckLen }

func (p *ServerAck) Append(b []byte) []byte {
	b = append(b, IDServerAck)
	return appendU32(b, p.Ack)
}

func (p *ServerAck) Parse(b []byte) (int, error) {
	if err := head(b, IDServerAck, ServerAckLen, "ServerAck"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.Ack = c.u32()
	return ServerAckLen, nil
}

// CheckSend is the server's check before sending: every value is legal.
func (p *ServerAck) CheckSend() error { return nil }

// CheckRecv is the client decoder's check: every value is legal.
func (p *ServerAck) CheckRecv() error { return nil }
