package wire

// PlayerMove (0x1B) is a snapshot of a shown player (docs/protocol.md).
//
//	[u8 packet_id = 0x1B]
//	[u32 seq]         // the server tick of the snapshot
//	[u16 player_id]   // 0..=999
//	[u8 state]        // 1 on foot, 2 driver, 3 passenger, 4 dead
//	[f32 x, y, z]     // within world bounds
//	[f32 heading]     // [0, 360)
//	[f32 vx, vy, vz]  // each within ±200
//	[u8 health]       // 0..=100
//	[u8 armour]       // 0..=100
//	[u8 weapon]       // 0..=46 except 19..=21
//	[u16 vehicle_id]  // driver or passenger: 1..=1999; otherwise 0
//	[u8 seat]         // passenger: 1..=8; otherwise 0
//
// Total: 42 bytes. Server → Client, unreliable lane, sequenced per player_id.
// Both sides check the ranges of PlayerSync; seq order and whether the player
// is shown are the client's stateful checks.
type PlayerMove struct {
	Seq       uint32  `json:"seq"`
	PlayerID  uint16  `json:"player_id"`
	State     uint8   `json:"state"`
	X         float32 `json:"x"`
	Y         float32 `json:"y"`
	Z         float32 `json:"z"`
	Heading   float32 `json:"heading"`
	VX        float32 `json:"vx"`
	VY        float32 `json:"vy"`
	VZ        float32 `json:"vz"`
	Health    uint8   `json:"health"`
	Armour    uint8   `json:"armour"`
	Weapon    uint8   `json:"weapon"`
	VehicleID uint16  `json:"vehicle_id"`
	Seat      uint8   `json:"seat"`
}

const (
	IDPlayerMove  = 0x1B
	PlayerMoveLen = 42
)

func init() { register(IDPlayerMove, func() Packet { return new(PlayerMove) }) }

func (*PlayerMove) ID() byte       { return IDPlayerMove }
func (*PlayerMove) Name() string   { return "PlayerMove" }
func (*PlayerMove) Dir() Direction { return ServerToClient }
func (*PlayerMove) Len() int       { return PlayerMoveLen }

func (p *PlayerMove) Append(b []byte) []byte {
	b = append(b, IDPlayerMove)
	b = appendU32(b, p.Seq)
	b = appendU16(b, p.PlayerID)
	b = append(b, p.State)
	b = appendF32(b, p.X)
	b = appendF32(b, p.Y)
	b = appendF32(b, p.Z)
	b = appendF32(b, p.Heading)
	b = appendF32(b, p.VX)
	b = appendF32(b, p.VY)
	b = appendF32(b, p.VZ)
	b = append(b, p.Health)
	b = append(b, p.Armour)
	b = append(b, p.Weapon)
	b = appendU16(b, p.VehicleID)
	b = append(b, p.Seat)
	return b
}

func (p *PlayerMove) Parse(b []byte) (int, error) {
	if err := head(b, IDPlayerMove, PlayerMoveLen, "PlayerMove"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.Seq = c.u32()
	p.PlayerID = c.u16()
	p.State = c.u8()
	p.X = c.f32()
	p.Y = c.f32()
	p.Z = c.f32()
	p.Heading = c.f32()
	p.VX = c.f32()
	p.VY = c.f32()
	p.VZ = c.f32()
	p.Health = c.u8()
	p.Armour = c.u8()
	p.Weapon = c.u8()
	p.VehicleID = c.u16()
	p.Seat = c.u8()
	return PlayerMoveLen, nil
}

// CheckSend is the server's check before sending.
func (p *PlayerMove) CheckSend() error { return p.check() }

// CheckRecv is the client decoder's stateless check: what it drops.
func (p *PlayerMove) CheckRecv() error { return p.check() }

func (p *PlayerMove) check() error {
	const pk = "PlayerMove"
	if err := checkPlayerID(pk, "player_id", p.PlayerID); err != nil {
		return err
	}
	if p.State == StateNotSpawned || p.State > StateDead {
		return invalid(pk, "state", "must be 1..=4, got %d", p.State)
	}
	if err := checkBody(pk, p.X, p.Y, p.Z, p.Heading, p.VX, p.VY, p.VZ, p.Health, p.Armour, p.Weapon); err != nil {
		return err
	}
	return checkSeating(pk, p.State, p.VehicleID, p.Seat)
}
