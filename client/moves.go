package client

import (
	"encoding/binary"
	"math"
	"time"

	"dlmp/internal/wire"
)

// The PlayerMoves are the bulk of what a client receives (a crowd's
// datagram holds ~24 of them, a bot of the load run ~80 a tick). They take
// a path of their own in receiveLocked: decoded by decodeMove into one
// reused value, checked by moveInRange, applied by the mirror's
// ApplyPlayerMove: no splitter, no interface call, no error value. A move
// that moveInRange refuses takes the generic path, whose CheckRecv counts it
// invalid with the rule it breaks: the shortcut decides nothing the
// generic path would decide otherwise (TestMoveInRangeIsCheckRecv), and
// decodeMove reads what PlayerMove.Parse reads (FuzzDecodeMove).

// fastMove handles the PlayerMove b (PlayerMoveLen bytes, its id checked by
// the caller) and reports whether it did; false leaves it to the generic
// path.
func (c *Client) fastMove(b []byte, now time.Time) bool {
	m := &c.move
	if decodeMove(b, m); !moveInRange(m) {
		return false
	}
	c.lastHeard = now
	if !c.world.ApplyPlayerMove(m, now) {
		c.stats.Stale++ // not newer than the last of its player
		return true
	}
	c.keep(m, b)
	return true
}

// moveInRange reports whether m passes PlayerMove.CheckRecv, the client
// decoder's stateless check (docs/protocol.md, PlayerSync's ranges), as one
// expression and without building an error. NaN fails every comparison, as
// in the codec's checks.
func moveInRange(m *wire.PlayerMove) bool {
	const xy, minZ, maxZ, v = wire.WorldXY, wire.WorldMinZ, wire.WorldMaxZ, wire.MaxSpeed
	inVehicle := m.State == wire.StateDriver || m.State == wire.StatePassenger
	return m.PlayerID < wire.MaxPlayers &&
		m.State != wire.StateNotSpawned && m.State <= wire.StateDead &&
		m.X >= -xy && m.X <= xy && m.Y >= -xy && m.Y <= xy && m.Z >= minZ && m.Z <= maxZ &&
		m.Heading >= 0 && m.Heading < 360 &&
		m.VX >= -v && m.VX <= v && m.VY >= -v && m.VY <= v && m.VZ >= -v && m.VZ <= v &&
		m.Health <= wire.MaxHealth && m.Armour <= wire.MaxHealth &&
		m.Weapon <= wire.MaxWeapon && (m.Weapon < 19 || m.Weapon > 21) &&
		(inVehicle && m.VehicleID != 0 && m.VehicleID <= wire.MaxVehicleID || !inVehicle && m.VehicleID == 0) &&
		(m.State == wire.StatePassenger && m.Seat != 0 && m.Seat <= wire.MaxSeat || m.State != wire.StatePassenger && m.Seat == 0)
}

// decodeMove decodes the PlayerMove b (at least PlayerMoveLen bytes, its
// id checked by the caller) into m: PlayerMove.Parse's layout (the
// wire.PlayerMove comment), read at fixed offsets with one bounds check.
func decodeMove(b []byte, m *wire.PlayerMove) {
	b = b[:wire.PlayerMoveLen]
	le := binary.LittleEndian
	f32 := func(i int) float32 { return math.Float32frombits(le.Uint32(b[i:])) }
	m.Seq = le.Uint32(b[1:])
	m.PlayerID = le.Uint16(b[5:])
	m.State = b[7]
	m.X, m.Y, m.Z, m.Heading = f32(8), f32(12), f32(16), f32(20)
	m.VX, m.VY, m.VZ = f32(24), f32(28), f32(32)
	m.Health, m.Armour, m.Weapon = b[36], b[37], b[38]
	m.VehicleID = le.Uint16(b[39:])
	m.Seat = b[41]
}
