package wire

// Checkpoint (0x67) shows, changes or hides one of the recipient's
// checkpoints (world.md).
//
//	[u8 packet_id = 0x67]
//	[u32 event_id]
//	[u32 checkpoint_id]
//	[u8 active]            // 1 = show or replace, 0 = hide (only checkpoint_id matters)
//	[u8 kind]              // 0 normal, 1 race, 2 race_finish, 3 air, 4 air_finish
//	[f32 x, y, z]
//	[f32 next_x, y, z]     // where it points; the position itself when there is no next point
//	[f32 radius]           // (0, 100]
//	[u32 color]            // 0xRRGGBB
//
// Total: 43 bytes. Server → Client, reliable event lane. The client decoder
// and the server reject active other than 0 / 1 and, with active = 1, a kind,
// radius or color out of range and a position or next point outside world
// bounds.
type Checkpoint struct {
	EventID      uint32  `json:"event_id"`
	CheckpointID uint32  `json:"checkpoint_id"`
	Active       uint8   `json:"active"`
	Kind         uint8   `json:"kind"`
	X            float32 `json:"x"`
	Y            float32 `json:"y"`
	Z            float32 `json:"z"`
	NextX        float32 `json:"next_x"`
	NextY        float32 `json:"next_y"`
	NextZ        float32 `json:"next_z"`
	Radius       float32 `json:"radius"`
	Color        uint32  `json:"color"`
}

const (
	IDCheckpoint  = 0x67
	CheckpointLen = 43

	MaxCheckpointRadius = 100 // meters
)

// Checkpoint kinds. A ground checkpoint is a cylinder, an air one a sphere.
const (
	CheckpointNormal     = 0
	CheckpointRace       = 1
	CheckpointRaceFinish = 2
	CheckpointAir        = 3
	CheckpointAirFinish  = 4
)

func init() { register(IDCheckpoint, func() Packet { return new(Checkpoint) }) }

func (*Checkpoint) ID() byte       { return IDCheckpoint }
func (*Checkpoint) Name() string   { return "Checkpoint" }
func (*Checkpoint) Dir() Direction { return ServerToClient }
func (*Checkpoint) Len() int       { return CheckpointLen }

func (p *Checkpoint) Append(b []byte) []byte {
	b = append(b, IDCheckpoint)
	b = appendU32(b, p.EventID)
	b = appendU32(b, p.CheckpointID)
	b = append(b, p.Active, p.Kind)
	b = appendF32(b, p.X)
	b = appendF32(b, p.Y)
	b = appendF32(b, p.Z)
	b = appendF32(b, p.NextX)
	b = appendF32(b, p.NextY)
	b = appendF32(b, p.NextZ)
	b = appendF32(b, p.Radius)
	return appendU32(b, p.Color)
}

func (p *Checkpoint) Parse(b []byte) (int, error) {
	if err := head(b, IDCheckpoint, CheckpointLen, "Checkpoint"); err != nil {
		return 0, err
	}
	b = b[:CheckpointLen]
	p.EventID = le.Uint32(b[1:])
	p.CheckpointID = le.Uint32(b[5:])
	p.Active = b[9]
	p.Kind = b[10]
	p.X = f32at(b[11:])
	p.Y = f32at(b[15:])
	p.Z = f32at(b[19:])
	p.NextX = f32at(b[23:])
	p.NextY = f32at(b[27:])
	p.NextZ = f32at(b[31:])
	p.Radius = f32at(b[35:])
	p.Color = le.Uint32(b[39:])
	return CheckpointLen, nil
}

// CheckSend is the server's check: the decoder's rules.
func (p *Checkpoint) CheckSend() error { return p.CheckRecv() }

// CheckRecv is the client decoder's check.
func (p *Checkpoint) CheckRecv() error {
	const pk = "Checkpoint"
	if err := checkActive(pk, p.Active); err != nil || p.Active == 0 {
		return err
	}
	if err := checkMax(pk, "kind", p.Kind, CheckpointAirFinish); err != nil {
		return err
	}
	if err := checkIn(pk, "x", "y", "z", p.X, p.Y, p.Z); err != nil {
		return err
	}
	if err := checkIn(pk, "next_x", "next_y", "next_z", p.NextX, p.NextY, p.NextZ); err != nil {
		return err
	}
	if err := checkAbove0(pk, "radius", p.Radius, MaxCheckpointRadius); err != nil {
		return err
	}
	return checkRGB(pk, "color", p.Color)
}
