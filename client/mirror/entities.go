package mirror

import (
	"slices"

	"dlmp/internal/wire"
)

// Other players and vehicles (docs/protocol.md "Streaming players and
// vehicles"): PlayerShow / VehicleShow on the reliable lane show, replace
// and hide them; PlayerMove / VehicleMove on the unreliable lane carry their
// motion, sequenced per entity. A snapshot whose seq is not above the last
// accepted for the same entity is dropped, and so is one for an entity not
// shown (its seq, when newer, is recorded all the same: the client's
// freshness is by seq alone). The last seq survives a hide, so a snapshot
// delayed from before the hide cannot move the entity after a new show. A
// player is not drawn
// until its first PlayerMove. A hide deletes the objects attached to the
// entity with their chains (world.md ObjectState).

// Player is another player as the client holds them.
type Player struct {
	ID     uint16
	Skin   uint16
	Color  uint32 // 0xRRGGBB
	Name   string
	HasPos bool // a PlayerMove has arrived since the show; until then the player is not drawn

	// From the last accepted PlayerMove.
	State     uint8
	Pos       Vec3
	Heading   float64 // degrees
	Vel       Vec3
	Health    uint8
	Armour    uint8
	Weapon    uint8
	VehicleID uint16
	Seat      uint8
}

// Vehicle is a vehicle as the client holds it.
type Vehicle struct {
	ID             uint16
	Model          uint16
	Color1, Color2 uint8
	Pos            Vec3
	Quat           [4]float64 // x, y, z, w
	Vel            Vec3
	Health         uint16
}

// Rot returns the vehicle's rotation.
func (v *Vehicle) Rot() Mat3 { return Quat(v.Quat[0], v.Quat[1], v.Quat[2], v.Quat[3]) }

type player struct{ Player }

type vehicle struct{ Vehicle }

func (m *Mirror) applyPlayerShow(p *wire.PlayerShow) {
	if p.Active == 0 {
		if m.players.hide(p.PlayerID) {
			m.deleteAttached(entityKey{wire.AttachPlayer, uint32(p.PlayerID)})
		}
		return
	}
	pl, fresh := m.players.show(p.PlayerID)
	if pl == nil {
		return // CheckRecv refused the id already
	}
	if fresh {
		*pl = player{Player{ID: p.PlayerID, Name: pl.Name}} // a hidden one's copy: the name is compared below
	}
	pl.Skin, pl.Color = p.Skin, p.Color
	if name := nameBytes(&p.PlayerName); string(name) != pl.Name { // no allocation when equal
		pl.Name = string(name)
	}
}

// nameBytes is the name up to its first NUL, as PlayerName.String.
func nameBytes(n *wire.PlayerName) []byte {
	for i, c := range n {
		if c == 0 {
			return n[:i]
		}
	}
	return n[:]
}

// applyPlayerMove applies a PlayerMove of a shown player; it reports
// whether the move was newer than the last of its id (shown or not).
func (m *Mirror) applyPlayerMove(p *wire.PlayerMove) bool {
	pl, why := m.players.move(p.PlayerID, p.Seq)
	if pl == nil {
		return m.counted(why)
	}
	pl.HasPos = true
	pl.State = p.State
	pl.Pos = vec32(p.X, p.Y, p.Z)
	pl.Heading = float64(p.Heading)
	pl.Vel = vec32(p.VX, p.VY, p.VZ)
	pl.Health, pl.Armour, pl.Weapon = p.Health, p.Armour, p.Weapon
	pl.VehicleID, pl.Seat = p.VehicleID, p.Seat
	return true
}

// counted counts a snapshot that move did not hand back an entity for,
// and reports whether it was newer than the last of its id.
func (m *Mirror) counted(why int) bool {
	switch why {
	case moveStale:
		m.stats.StaleMoves++
	case moveUnshown, moveBeyond:
		m.stats.UnshownMoves++
	}
	return why == moveUnshown
}

func (m *Mirror) applyVehicleShow(p *wire.VehicleShow) {
	if p.Active == 0 {
		if m.vehicles.hide(p.VehicleID) {
			m.deleteAttached(entityKey{wire.AttachVehicle, uint32(p.VehicleID)})
		}
		return
	}
	v, fresh := m.vehicles.show(p.VehicleID)
	if v == nil {
		return // CheckRecv refused the id already
	}
	if fresh {
		*v = vehicle{Vehicle{ID: p.VehicleID}}
	}
	v.Model, v.Color1, v.Color2 = p.Model, p.Color1, p.Color2
	v.Pos = vec32(p.X, p.Y, p.Z)
	v.Quat = [4]float64{float64(p.QX), float64(p.QY), float64(p.QZ), float64(p.QW)}
	v.Health = p.Health
}

// applyVehicleMove applies a VehicleMove of a shown vehicle; it reports
// whether the move was newer than the last of its id (shown or not).
func (m *Mirror) applyVehicleMove(p *wire.VehicleMove) bool {
	v, why := m.vehicles.move(p.VehicleID, p.Seq)
	if v == nil {
		return m.counted(why)
	}
	v.Pos = vec32(p.X, p.Y, p.Z)
	v.Quat = [4]float64{float64(p.QX), float64(p.QY), float64(p.QZ), float64(p.QW)}
	v.Vel = vec32(p.VX, p.VY, p.VZ)
	v.Health = p.Health
	return true
}

// Player returns the shown player id.
func (m *Mirror) Player(id uint16) (Player, bool) {
	if pl := m.players.get(id); pl != nil {
		return pl.Player, true
	}
	return Player{}, false
}

// Players returns every shown player, by id.
func (m *Mirror) Players() []Player {
	out := make([]Player, 0, m.players.len())
	m.players.all(func(pl *player) { out = append(out, pl.Player) })
	slices.SortFunc(out, func(a, b Player) int { return int(a.ID) - int(b.ID) })
	return out
}

// Vehicle returns the shown vehicle id.
func (m *Mirror) Vehicle(id uint16) (Vehicle, bool) {
	if v := m.vehicles.get(id); v != nil {
		return v.Vehicle, true
	}
	return Vehicle{}, false
}

// Vehicles returns every shown vehicle, by id.
func (m *Mirror) Vehicles() []Vehicle {
	out := make([]Vehicle, 0, m.vehicles.len())
	m.vehicles.all(func(v *vehicle) { out = append(out, v.Vehicle) })
	slices.SortFunc(out, func(a, b Vehicle) int { return int(a.ID) - int(b.ID) })
	return out
}

// entityPose returns the pose of the entity an attachment names: a shown
// vehicle (its position and rotation), a shown player with a position (its
// position and heading, the only part of a player's rotation that counts),
// or the local player once spawned (a player is always shown to
// themselves). ok is false when the entity is not shown or has no position
// yet.
func (m *Mirror) entityPose(kind uint8, id uint32) (Pose, bool) {
	switch kind {
	case wire.AttachPlayer:
		if id == uint32(m.local.id) {
			if !m.local.spawned {
				return Pose{}, false
			}
			return Pose{Pos: m.local.pos, Rot: RotZ(m.local.heading)}, true
		}
		if id > 0xFFFF {
			return Pose{}, false
		}
		if pl := m.players.get(uint16(id)); pl != nil && pl.HasPos {
			return Pose{Pos: pl.Pos, Rot: RotZ(pl.Heading)}, true
		}
	case wire.AttachVehicle:
		if id > 0xFFFF {
			return Pose{}, false
		}
		if v := m.vehicles.get(uint16(id)); v != nil {
			return Pose{Pos: v.Pos, Rot: v.Rot()}, true
		}
	}
	return Pose{}, false
}
