package wire

// SpawnPlayer (0x2A) spawns the player (docs/protocol.md).
//
//	[u8 packet_id = 0x2A]
//	[u32 event_id]
//	[f32 x, y, z]  // within world bounds
//	[f32 heading]  // degrees, [0, 360)
//	[u16 skin]     // 0..=311 except 74
//	[u8 interior]  // the interior the player lands in
//	[u32 world]    // the virtual world the player lands in
//	[u8 health]    // 1..=100
//	[u8 armour]    // 0..=100
//
// Total: 30 bytes. Server → Client, reliable event lane, critical. Both the
// server and the client decoder check every range.
type SpawnPlayer struct {
	EventID  uint32  `json:"event_id"`
	X        float32 `json:"x"`
	Y        float32 `json:"y"`
	Z        float32 `json:"z"`
	Heading  float32 `json:"heading"`
	Skin     uint16  `json:"skin"`
	Interior uint8   `json:"interior"`
	World    uint32  `json:"world"`
	Health   uint8   `json:"health"`
	Armour   uint8   `json:"armour"`
}

const (
	IDSpawnPlayer  = 0x2A
	SpawnPlayerLen = 30
)

func init() { register(IDSpawnPlayer, func() Packet { return new(SpawnPlayer) }) }

func (*SpawnPlayer) ID() byte       { return IDSpawnPlayer }
func (*SpawnPlayer) Name() string   { return "SpawnPlayer" }
func (*SpawnPlayer) Dir() Direction { return ServerToClient }
func (*SpawnPlayer) Len() int       { return SpawnPlayerLen }

func (p *SpawnPlayer) Append(b []byte) []byte {
	b = append(b, IDSpawnPlayer)
	b = appendU32(b, p.EventID)
	b = appendF32(b, p.X)
	b = appendF32(b, p.Y)
	b = appendF32(b, p.Z)
	b = appendF32(b, p.Heading)
	b = appendU16(b, p.Skin)
	b = append(b, p.Interior)
	b = appendU32(b, p.World)
	b = append(b, p.Health)
	b = append(b, p.Armour)
	return b
}

func (p *SpawnPlayer) Parse(b []byte) (int, error) {
	if err := head(b, IDSpawnPlayer, SpawnPlayerLen, "SpawnPlayer"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.EventID = c.u32()
	p.X = c.f32()
	p.Y = c.f32()
	p.Z = c.f32()
	p.Heading = c.f32()
	p.Skin = c.u16()
	p.Interior = c.u8()
	p.World = c.u32()
	p.Health = c.u8()
	p.Armour = c.u8()
	return SpawnPlayerLen, nil
}

// CheckSend is the server's check before sending.
func (p *SpawnPlayer) CheckSend() error { return p.check() }

// CheckRecv is the client decoder's check: what it drops without an ack.
func (p *SpawnPlayer) CheckRecv() error { return p.check() }

func (p *SpawnPlayer) check() error {
	const pk = "SpawnPlayer"
	if err := checkLanding(pk, p.X, p.Y, p.Z, p.Heading); err != nil {
		return err
	}
	if err := checkSkin(pk, p.Skin); err != nil {
		return err
	}
	if p.Health == 0 || p.Health > MaxHealth {
		return invalid(pk, "health", "must be 1..=100, got %d", p.Health)
	}
	return checkPoints(pk, "armour", p.Armour)
}
