package wire

// CreateExplosion (0x5A) plays an explosion (docs/protocol.md).
//
//	[u8 packet_id = 0x5A]
//	[u32 event_id]
//	[f32 x, y, z]   // within world bounds
//	[u8 type]       // the game's explosion type, 0..=12
//	[f32 radius]    // meters, (0, 100]
//
// Total: 22 bytes. Server → Client, reliable event lane, droppable. Both sides
// reject a position outside world bounds, a type above 12 and a radius not in
// (0, 100].
type CreateExplosion struct {
	EventID uint32  `json:"event_id"`
	X       float32 `json:"x"`
	Y       float32 `json:"y"`
	Z       float32 `json:"z"`
	Type    uint8   `json:"type"`
	Radius  float32 `json:"radius"`
}

const (
	IDCreateExplosion  = 0x5A
	CreateExplosionLen = 22
)

func init() { register(IDCreateExplosion, func() Packet { return new(CreateExplosion) }) }

func (*CreateExplosion) ID() byte       { return IDCreateExplosion }
func (*CreateExplosion) Name() string   { return "CreateExplosion" }
func (*CreateExplosion) Dir() Direction { return ServerToClient }
func (*CreateExplosion) Len() int       { return CreateExplosionLen }

func (p *CreateExplosion) Append(b []byte) []byte {
	b = append(b, IDCreateExplosion)
	b = appendU32(b, p.EventID)
	b = appendF32(b, p.X)
	b = appendF32(b, p.Y)
	b = appendF32(b, p.Z)
	b = append(b, p.Type)
	b = appendF32(b, p.Radius)
	return b
}

func (p *CreateExplosion) Parse(b []byte) (int, error) {
	if err := head(b, IDCreateExplosion, CreateExplosionLen, "CreateExplosion"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.EventID = c.u32()
	p.X = c.f32()
	p.Y = c.f32()
	p.Z = c.f32()
	p.Type = c.u8()
	p.Radius = c.f32()
	return CreateExplosionLen, nil
}

// CheckSend is the server's check before sending.
func (p *CreateExplosion) CheckSend() error { return p.check() }

// CheckRecv is the client decoder's check: what it drops without an ack.
func (p *CreateExplosion) CheckRecv() error { return p.check() }

func (p *CreateExplosion) check() error {
	const pk = "CreateExplosion"
	if err := checkWorld(pk, "x", "y", "z", p.X, p.Y, p.Z); err != nil {
		return err
	}
	if p.Type > MaxExplosionType {
		return invalid(pk, "type", "must be 0..=12, got %d", p.Type)
	}
	if !(p.Radius > 0 && p.Radius <= MaxExplosionRadius) {
		return invalid(pk, "radius", "must be a number in (0, 100], got %v", p.Radius)
	}
	return nil
}

// Limits of CreateExplosion.
const (
	MaxExplosionType   = 12
	MaxExplosionRadius = 100 // meters
)
