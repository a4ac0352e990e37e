package wire

// SetWaypoint (0x9E) puts a waypoint on the recipient's map, replacing the
// player's waypoint, or removes it (world.md).
//
//	[u8 packet_id = 0x9E]
//	[u32 event_id]
//	[u8 active]    // 1 = set a waypoint at (x, y), 0 = remove it
//	[f32 x][f32 y] // meters, ±3000
//
// Total: 14 bytes. Server → Client, reliable event lane, to one player. The
// client sets the waypoint once the player is spawned and answers with a
// PlayerWaypoint reporting what the game actually set.
//
// The client decoder (CheckRecv) rejects active other than 0 or 1 and, with
// active = 1, a point outside ±3000 or not a number. The point of a removal
// (active = 0) is not checked on either side: like every hide in world.md,
// only the flag matters, so a removal with garbage coordinates still decodes
// (docs/decisions/0010-waypoint-removal-point.md). The server (CheckSend)
// applies the same rules before sending.
type SetWaypoint struct {
	EventID uint32  `json:"event_id"`
	Active  uint8   `json:"active"`
	X       float32 `json:"x"`
	Y       float32 `json:"y"`
}

const (
	IDSetWaypoint  = 0x9E
	SetWaypointLen = 14
)

func init() { register(IDSetWaypoint, func() Packet { return new(SetWaypoint) }) }

func (*SetWaypoint) ID() byte       { return IDSetWaypoint }
func (*SetWaypoint) Name() string   { return "SetWaypoint" }
func (*SetWaypoint) Dir() Direction { return ServerToClient }
func (*SetWaypoint) Len() int       { return SetWaypointLen }

func (p *SetWaypoint) Append(b []byte) []byte {
	b = append(b, IDSetWaypoint)
	b = appendU32(b, p.EventID)
	b = append(b, p.Active)
	b = appendF32(b, p.X)
	return appendF32(b, p.Y)
}

func (p *SetWaypoint) Parse(b []byte) (int, error) {
	if err := head(b, IDSetWaypoint, SetWaypointLen, "SetWaypoint"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.EventID = c.u32()
	p.Active = c.u8()
	p.X = c.f32()
	p.Y = c.f32()
	return SetWaypointLen, nil
}

// CheckSend is the server's check before sending: the client's rules.
func (p *SetWaypoint) CheckSend() error { return checkWaypointState("SetWaypoint", p.Active, p.X, p.Y) }

// CheckRecv is the client decoder's check.
func (p *SetWaypoint) CheckRecv() error { return checkWaypointState("SetWaypoint", p.Active, p.X, p.Y) }
