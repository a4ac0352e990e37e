package client

import (
	"time"

	"dlmp/internal/wire"
)

// The PlayerMoves are the bulk of what a client receives (a crowd's
// datagram holds ~24 of them, a bot of the load run ~80 a tick). They take
// a path of their own in receiveLocked: parsed by the concrete codec into
// one reused value, checked by moveInRange, applied by the mirror's
// ApplyPlayerMove: no splitter, no interface call, no error value. A move
// that moveInRange refuses takes the generic path, whose CheckRecv counts it
// invalid with the rule it breaks: the shortcut decides nothing the
// generic path would decide otherwise (TestMoveInRangeIsCheckRecv).

// fastMove handles the PlayerMove b (PlayerMoveLen bytes, its id checked by
// the caller) and reports whether it did; false leaves it to the generic
// path.
func (c *Client) fastMove(b []byte, now time.Time) bool {
	m := &c.move
	if _, err := m.Parse(b); err != nil || !moveInRange(m) {
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
