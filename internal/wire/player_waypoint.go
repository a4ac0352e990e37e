package wire

// PlayerWaypoint (0x9D) is the waypoint on the player's map as the client has
// it now (world.md).
//
//	[u8 packet_id = 0x9D]
//	[u64 token]
//	[u32 event_id] // position in the Client → Server reliable stream
//	[u8 active]    // 1 = a waypoint at (x, y), 0 = no waypoint
//	[f32 x][f32 y] // meters, ±3000; meaningful with active = 1 only
//
// Total: 22 bytes. Client → Server, reliable event lane. The client sends it
// on every change: a click on the map, a removal (by the player or by the
// game on arrival), a waypoint set by SetWaypoint. Never relayed to anyone.
//
// An error from CheckRecv means "dropped silently (but acknowledged)": the
// lane has accepted the event in order and acknowledges it as usual, and the
// server drops the packet without a reply or a player_waypoint. Its rules are
// the stateless ones: active is 0 or 1, and with active = 1 x and y are
// numbers within ±3000; with active = 0 x and y are not looked at, NaN
// included. event_id 0 is never in the stream (ids start at 1): the lane's
// order check refuses it first, and CheckRecv reports it too. The stateful
// drops are the world's: a player not spawned yet, and a repeat of what the
// server holds (a point within 1 m of the held one, or "none" again).
//
// The client's check before sending (CheckSend) is active and the point; the
// token and event_id are written by its session and lane afterwards.
type PlayerWaypoint struct {
	Token   uint64  `json:"token"`
	EventID uint32  `json:"event_id"`
	Active  uint8   `json:"active"`
	X       float32 `json:"x"`
	Y       float32 `json:"y"`
}

const (
	IDPlayerWaypoint  = 0x9D
	PlayerWaypointLen = 22
)

func init() { register(IDPlayerWaypoint, func() Packet { return new(PlayerWaypoint) }) }

func (*PlayerWaypoint) ID() byte       { return IDPlayerWaypoint }
func (*PlayerWaypoint) Name() string   { return "PlayerWaypoint" }
func (*PlayerWaypoint) Dir() Direction { return ClientToServer }
func (*PlayerWaypoint) Len() int       { return PlayerWaypointLen }

func (p *PlayerWaypoint) Append(b []byte) []byte {
	b = append(b, IDPlayerWaypoint)
	b = appendU64(b, p.Token)
	b = appendU32(b, p.EventID)
	b = append(b, p.Active)
	b = appendF32(b, p.X)
	return appendF32(b, p.Y)
}

func (p *PlayerWaypoint) Parse(b []byte) (int, error) {
	if err := head(b, IDPlayerWaypoint, PlayerWaypointLen, "PlayerWaypoint"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.Token = c.u64()
	p.EventID = c.u32()
	p.Active = c.u8()
	p.X = c.f32()
	p.Y = c.f32()
	return PlayerWaypointLen, nil
}

// CheckSend is the client's check before sending: active, and the point of
// an active waypoint.
func (p *PlayerWaypoint) CheckSend() error {
	return checkWaypointState("PlayerWaypoint", p.Active, p.X, p.Y)
}

// CheckRecv is the server's stateless check: event_id, active, and the point
// of an active waypoint. Its errors are dropped silently, but acknowledged.
func (p *PlayerWaypoint) CheckRecv() error {
	if err := checkClientEvent("PlayerWaypoint", p.EventID); err != nil {
		return err
	}
	return checkWaypointState("PlayerWaypoint", p.Active, p.X, p.Y)
}
