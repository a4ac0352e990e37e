package wire

// RespawnPlayer (0x0D) brings a dead player back at a place, with full health,
// no armour, the same skin and no weapons (docs/protocol.md).
//
//	[u8 packet_id = 0x0D]
//	[u32 event_id]
//	[f32 x, y, z]  // within world bounds
//	[f32 heading]  // degrees, [0, 360)
//	[u8 interior]
//	[u32 world]
//
// Total: 26 bytes. Server → Client, reliable event lane, critical. Both sides
// reject a position outside world bounds and a heading outside [0, 360).
type RespawnPlayer struct {
	EventID  uint32  `json:"event_id"`
	X        float32 `json:"x"`
	Y        float32 `json:"y"`
	Z        float32 `json:"z"`
	Heading  float32 `json:"heading"`
	Interior uint8   `json:"interior"`
	World    uint32  `json:"world"`
}

const (
	IDRespawnPlayer  = 0x0D
	RespawnPlayerLen = 26
)

func init() { register(IDRespawnPlayer, func() Packet { return new(RespawnPlayer) }) }

func (*RespawnPlayer) ID() byte       { return IDRespawnPlayer }
func (*RespawnPlayer) Name() string   { return "RespawnPlayer" }
func (*RespawnPlayer) Dir() Direction { return ServerToClient }
func (*RespawnPlayer) Len() int       { return RespawnPlayerLen }

func (p *RespawnPlayer) Append(b []byte) []byte {
	b = append(b, IDRespawnPlayer)
	b = appendU32(b, p.EventID)
	b = appendF32(b, p.X)
	b = appendF32(b, p.Y)
	b = appendF32(b, p.Z)
	b = appendF32(b, p.Heading)
	b = append(b, p.Interior)
	b = appendU32(b, p.World)
	return b
}

func (p *RespawnPlayer) Parse(b []byte) (int, error) {
	if err := head(b, IDRespawnPlayer, RespawnPlayerLen, "RespawnPlayer"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.EventID = c.u32()
	p.X = c.f32()
	p.Y = c.f32()
	p.Z = c.f32()
	p.Heading = c.f32()
	p.Interior = c.u8()
	p.World = c.u32()
	return RespawnPlayerLen, nil
}

// CheckSend is the server's check before sending.
func (p *RespawnPlayer) CheckSend() error { return p.check() }

// CheckRecv is the client decoder's check: what it drops without an ack.
func (p *RespawnPlayer) CheckRecv() error { return p.check() }

func (p *RespawnPlayer) check() error {
	const pk = "RespawnPlayer"
	return checkLanding(pk, p.X, p.Y, p.Z, p.Heading)
}
