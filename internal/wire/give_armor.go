package wire

// GiveArmor (0x18) grants armour points; the client caps armour at 100 (docs/protocol.md).
//
//	[u8 packet_id = 0x18]
//	[u32 event_id]
//	[u8 amount] // 1..=100
//
// Total: 6 bytes. Server → Client, reliable event lane, critical (a grant).
// Both sides reject an amount of 0 or above 100.
type GiveArmor struct {
	EventID uint32 `json:"event_id"`
	Amount  uint8  `json:"amount"`
}

const (
	IDGiveArmor  = 0x18
	GiveArmorLen = 6
)

func init() { register(IDGiveArmor, func() Packet { return new(GiveArmor) }) }

func (*GiveArmor) ID() byte       { return IDGiveArmor }
func (*GiveArmor) Name() string   { return "GiveArmor" }
func (*GiveArmor) Dir() Direction { return ServerToClient }
func (*GiveArmor) Len() int       { return GiveArmorLen }

func (p *GiveArmor) Append(b []byte) []byte {
	b = append(b, IDGiveArmor)
	b = appendU32(b, p.EventID)
	b = append(b, p.Amount)
	return b
}

func (p *GiveArmor) Parse(b []byte) (int, error) {
	if err := head(b, IDGiveArmor, GiveArmorLen, "GiveArmor"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.EventID = c.u32()
	p.Amount = c.u8()
	return GiveArmorLen, nil
}

// CheckSend is the server's check before sending.
func (p *GiveArmor) CheckSend() error { return p.check() }

// CheckRecv is the client decoder's check: what it drops without an ack.
func (p *GiveArmor) CheckRecv() error { return p.check() }

func (p *GiveArmor) check() error {
	const pk = "GiveArmor"
	if p.Amount == 0 || p.Amount > MaxHealth {
		return invalid(pk, "amount", "must be 1..=100, got %d", p.Amount)
	}
	return nil
}
