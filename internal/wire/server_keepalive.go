package wire

// ServerKeepalive (0x09) answers a ClientKeepalive or keeps an idle
// connection alive (docs/protocol.md).
//
//	[u8 packet_id = 0x09]
//	[u32 echo] // the ping answered; 0 when unprompted
//
// Total: 5 bytes. Server → Client, control. Any value is valid.
type ServerKeepalive struct {
	Echo uint32 `json:"echo"`
}

func init() { register(IDServerKeepalive, func() Packet { return new(ServerKeepalive) }) }

func (*ServerKeepalive) ID() byte       { return IDServerKeepalive }
func (*ServerKeepalive) Name() string   { return "ServerKeepalive" }
func (*ServerKeepalive) Dir() Direction { return ServerToClient }
func (*ServerKeepalive) Len() int       { return ServerKeepaliveLen }

func (p *ServerKeepalive) Append(b []byte) []byte {
	return appendU32(append(b, IDServerKeepalive), p.Echo)
}

func (p *ServerKeepalive) Parse(b []byte) (int, error) {
	if err := head(b, IDServerKeepalive, ServerKeepaliveLen, "ServerKeepalive"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.Echo = c.u32()
	return ServerKeepaliveLen, nil
}

// CheckSend checks nothing: every echo is valid.
func (p *ServerKeepalive) CheckSend() error { return nil }

// CheckRecv checks nothing: every echo is valid.
func (p *ServerKeepalive) CheckRecv() error { return nil }
