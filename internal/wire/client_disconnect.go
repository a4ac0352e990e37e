package wire

// ClientDisconnect (0x05) ends a connection, from the client
// (docs/protocol.md).
//
//	[u8 packet_id = 0x05]
//	[u64 token]  // the sender's session_token
//	[u8 reason]  // 1..=10; a client sends 1, 4 or 10
//
// Total: 10 bytes. Client → Server, control. The server drops and counts a
// zero token and a reason outside 1..=10; the client sends only timeout,
// protocol_error and quit.
type ClientDisconnect struct {
	Token  uint64 `json:"token"`
	Reason uint8  `json:"reason"`
}

func init() { register(IDClientDisconnect, func() Packet { return new(ClientDisconnect) }) }

func (*ClientDisconnect) ID() byte       { return IDClientDisconnect }
func (*ClientDisconnect) Name() string   { return "ClientDisconnect" }
func (*ClientDisconnect) Dir() Direction { return ClientToServer }
func (*ClientDisconnect) Len() int       { return ClientDisconnectLen }

func (p *ClientDisconnect) Append(b []byte) []byte {
	return append(appendU64(append(b, IDClientDisconnect), p.Token), p.Reason)
}

func (p *ClientDisconnect) Parse(b []byte) (int, error) {
	if err := head(b, IDClientDisconnect, ClientDisconnectLen, "ClientDisconnect"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.Token = c.u64()
	p.Reason = c.u8()
	return ClientDisconnectLen, nil
}

// CheckSend is the client's check before sending: only the reasons a client
// gives.
func (p *ClientDisconnect) CheckSend() error {
	if err := checkDisconnect("ClientDisconnect", p.Token, p.Reason); err != nil {
		return err
	}
	switch p.Reason {
	case ReasonTimeout, ReasonProtocolError, ReasonQuit:
		return nil
	}
	return invalid("ClientDisconnect", "reason", "a client sends only 1, 4 or 10, got %d", p.Reason)
}

// CheckRecv is the server's stateless check.
func (p *ClientDisconnect) CheckRecv() error {
	return checkDisconnect("ClientDisconnect", p.Token, p.Reason)
}
