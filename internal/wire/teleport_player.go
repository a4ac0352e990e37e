package wire

// TeleportPlayer (0x15) moves a living player to a place, interior and
// virtual world (docs/protocol.md).
//
//	[u8 packet_id = 0x15]
//	[u32 event_id]
//	[f32 x, y, z]  // within world bounds
//	[f32 heading]  // degrees, [0, 360)
//	[u8 interior]
//	[u32 world]
//
// Total: 26 bytes. Server → Client, reliable event lane, critical. Both sides
// reject a position outside world bounds and a heading outside [0, 360).
type TeleportPlayer struct {
	EventID  uint32  `json:"event_id"`
	X        float32 `json:"x"`
	Y        float32 `json:"y"`
	Z        float32 `json:"z"`
	Heading  float32 `json:"heading"`
	Interior uint8   `json:"interior"`
	World    uint32  `json:"world"`
}

const (
	IDTeleportPlayer  = 0x15
	TeleportPlayerLen = 26
)

func init() { register(IDTeleportPlayer, func() Packet { return new(TeleportPlayer) }) }

func (*TeleportPlayer) ID() byte       { return IDTeleportPlayer }
func (*TeleportPlayer) Name() string   { return "TeleportPlayer" }
func (*TeleportPlayer) Dir() Direction { return ServerToClient }
func (*TeleportPlayer) Len() int       { return TeleportPlayerLen }

func (p *TeleportPlayer) Append(b []byte) []byte {
	b = append(b, IDTeleportPlayer)
	b = appendU32(b, p.EventID)
	b = appendF32(b, p.X)
	b = appendF32(b, p.Y)
	b = appendF32(b, p.Z)
	b = appendF32(b, p.Heading)
	b = append(b, p.Interior)
	b = appendU32(b, p.World)
	return b
}

func (p *TeleportPlayer) Parse(b []byte) (int, error) {
	if err := head(b, IDTeleportPlayer, TeleportPlayerLen, "TeleportPlayer"); err != nil {
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
	return TeleportPlayerLen, nil
}

// CheckSend is the server's check before sending.
func (p *TeleportPlayer) CheckSend() error { return p.check() }

// CheckRecv is the client decoder's check: what it drops without an ack.
func (p *TeleportPlayer) CheckRecv() error { return p.check() }

func (p *TeleportPlayer) check() error {
	const pk = "TeleportPlayer"
	return checkLanding(pk, p.X, p.Y, p.Z, p.Heading)
}
