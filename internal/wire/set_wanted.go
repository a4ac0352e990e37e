package wire

// SetWanted (0x11) sets the recipient's wanted level (docs/protocol.md).
//
//	[u8 packet_id = 0x11]
//	[u32 event_id]
//	[u8 level] // 0..=6
//
// Total: 6 bytes. Server → Client, reliable event lane, critical. Both sides
// reject a level above 6.
type SetWanted struct {
	EventID uint32 `json:"event_id"`
	Level   uint8  `json:"level"`
}

const (
	IDSetWanted  = 0x11
	SetWantedLen = 6
)

func init() { register(IDSetWanted, func() Packet { return new(SetWanted) }) }

func (*SetWanted) ID() byte       { return IDSetWanted }
func (*SetWanted) Name() string   { return "SetWanted" }
func (*SetWanted) Dir() Direction { return ServerToClient }
func (*SetWanted) Len() int       { return SetWantedLen }

func (p *SetWanted) Append(b []byte) []byte {
	b = append(b, IDSetWanted)
	b = appendU32(b, p.EventID)
	b = append(b, p.Level)
	return b
}

func (p *SetWanted) Parse(b []byte) (int, error) {
	if err := head(b, IDSetWanted, SetWantedLen, "SetWanted"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.EventID = c.u32()
	p.Level = c.u8()
	return SetWantedLen, nil
}

// CheckSend is the server's check before sending.
func (p *SetWanted) CheckSend() error { return p.check() }

// CheckRecv is the client decoder's check: what it drops without an ack.
func (p *SetWanted) CheckRecv() error { return p.check() }

func (p *SetWanted) check() error {
	const pk = "SetWanted"
	if p.Level > MaxWanted {
		return invalid(pk, "level", "must be 0..=6, got %d", p.Level)
	}
	return nil
}

// MaxWanted is the highest wanted level.
const MaxWanted = 6
