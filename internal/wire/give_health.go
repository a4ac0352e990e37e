package wire

// GiveHealth (0x17) grants health points; the client caps health at 100 (docs/protocol.md).
//
//	[u8 packet_id = 0x17]
//	[u32 event_id]
//	[u8 amount] // 1..=100
//
// Total: 6 bytes. Server → Client, reliable event lane, critical (a grant).
// Both sides reject an amount of 0 or above 100.
type GiveHealth struct {
	EventID uint32 `json:"event_id"`
	Amount  uint8  `json:"amount"`
}

const (
	IDGiveHealth  = 0x17
	GiveHealthLen = 6
)

func init() { register(IDGiveHealth, func() Packet { return new(GiveHealth) }) }

func (*GiveHealth) ID() byte       { return IDGiveHealth }
func (*GiveHealth) Name() string   { return "GiveHealth" }
func (*GiveHealth) Dir() Direction { return ServerToClient }
func (*GiveHealth) Len() int       { return GiveHealthLen }

func (p *GiveHealth) Append(b []byte) []byte {
	b = append(b, IDGiveHealth)
	b = appendU32(b, p.EventID)
	b = append(b, p.Amount)
	return b
}

func (p *GiveHealth) Parse(b []byte) (int, error) {
	if err := head(b, IDGiveHealth, GiveHealthLen, "GiveHealth"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.EventID = c.u32()
	p.Amount = c.u8()
	return GiveHealthLen, nil
}

// CheckSend is the server's check before sending.
func (p *GiveHealth) CheckSend() error { return p.check() }

// CheckRecv is the client decoder's check: what it drops without an ack.
func (p *GiveHealth) CheckRecv() error { return p.check() }

func (p *GiveHealth) check() error {
	const pk = "GiveHealth"
	if p.Amount == 0 || p.Amount > MaxHealth {
		return invalid(pk, "amount", "must be 1..=100, got %d", p.Amount)
	}
	return nil
}
