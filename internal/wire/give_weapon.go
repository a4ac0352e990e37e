package wire

// GiveWeapon (0x16) grants a weapon and ammo (docs/protocol.md).
//
//	[u8 packet_id = 0x16]
//	[u32 event_id]
//	[u8 weapon] // 0..=46 except 19..=21
//	[u16 ammo]  // rounds added
//
// Total: 8 bytes. Server → Client, reliable event lane, critical (a grant).
// Both sides reject a weapon above 46 or 19..=21; any ammo is valid.
type GiveWeapon struct {
	EventID uint32 `json:"event_id"`
	Weapon  uint8  `json:"weapon"`
	Ammo    uint16 `json:"ammo"`
}

const (
	IDGiveWeapon  = 0x16
	GiveWeaponLen = 8
)

func init() { register(IDGiveWeapon, func() Packet { return new(GiveWeapon) }) }

func (*GiveWeapon) ID() byte       { return IDGiveWeapon }
func (*GiveWeapon) Name() string   { return "GiveWeapon" }
func (*GiveWeapon) Dir() Direction { return ServerToClient }
func (*GiveWeapon) Len() int       { return GiveWeaponLen }

func (p *GiveWeapon) Append(b []byte) []byte {
	b = append(b, IDGiveWeapon)
	b = appendU32(b, p.EventID)
	b = append(b, p.Weapon)
	b = appendU16(b, p.Ammo)
	return b
}

func (p *GiveWeapon) Parse(b []byte) (int, error) {
	if err := head(b, IDGiveWeapon, GiveWeaponLen, "GiveWeapon"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.EventID = c.u32()
	p.Weapon = c.u8()
	p.Ammo = c.u16()
	return GiveWeaponLen, nil
}

// CheckSend is the server's check before sending.
func (p *GiveWeapon) CheckSend() error { return p.check() }

// CheckRecv is the client decoder's check: what it drops without an ack.
func (p *GiveWeapon) CheckRecv() error { return p.check() }

func (p *GiveWeapon) check() error {
	const pk = "GiveWeapon"
	return checkWeapon(pk, p.Weapon)
}
