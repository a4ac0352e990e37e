package world

import (
	"fmt"
	"math"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// Vehicles (docs/protocol.md VehicleShow, VehicleMove; ADR 0127). A vehicle
// is shown to a player like another player: same scope, within
// VehicleStreamDistance of the player's stream center, among the
// VehicleLimit nearest; a show (critical) on entering the view and on every
// change of what the show carries that a driver's sync does not (a pose set
// by the gamemode, a respawn, colors); a hide on leaving it or deletion.
//
// Driver policy: a PlayerSync accepted from a player with state 2 (driver)
// moves vehicle_id to the sync's position and rotation, with its velocity
// and vehicle_health, when the vehicle exists, is in the player's scope, has
// no other driver, and the position is within DriverSlack meters of the
// vehicle's pose (plus, for the driver it already has, MaxSpeed × the time
// since that pose was set): an idle vehicle does not move, so a new driver
// gets in where it stands.
// Otherwise the vehicle does not move and Stats.DriverRefused counts it (the
// player's own sync stands). A vehicle that moved sends VehicleMove
// (unreliable, seq = the server tick) once per tick to every player it is
// shown to except its driver, whose client simulates it.
//
// Respawn: a vehicle with a respawn delay returns to its spawn pose (the one
// it was created with), intact, when it has had neither a driver nor a
// placement by the gamemode for that long and is away from it; RespawnVehicle does it at once. The objects attached to
// it stay attached.
const (
	// MaxVehicles is the protocol's vehicle limit: ids 1..=1999.
	MaxVehicles = 1999
	// VehicleStreamDistance is how far, meters, a vehicle is shown.
	VehicleStreamDistance = PlayerStreamDistance
	// VehicleLimit is how many vehicles one player is shown at most.
	VehicleLimit = 500
	// DriverSlack is how far, meters, a driver's first sync may put the
	// vehicle from its last pose, before the speed allowance.
	DriverSlack = 10
	// MaxVehicleHealth is full health.
	MaxVehicleHealth = 1000
)

// Quat is a rotation as a unit quaternion (x, y, z, w). The zero Quat means
// no rotation.
type Quat struct{ X, Y, Z, W float32 }

func (q Quat) orIdentity() Quat {
	if q == (Quat{}) {
		return Quat{W: 1}
	}
	return q
}

// Vehicle is one server vehicle. Read it with [World.Vehicle].
type Vehicle struct {
	id             uint16
	model          uint16
	color1, color2 uint8
	pos            grid.Vec
	rot            Quat
	vel            grid.Vec
	health         uint16
	scope          grid.Scope
	spawnPos       grid.Vec
	spawnRot       Quat
	respawn        time.Duration // 0: never respawns by itself
	driver         *Player
	idleSince      time.Time // when the last driver left (or the creation)
	setAt          time.Time // when the pose was last set (creation, set, respawn, driver sync)
	rev            uint32
	h              grid.Handle
	announceAt     grid.Vec // where the views around it were last told to compute again
	announceScope  grid.Scope
	announced      bool
	moved          bool
	move           []byte // this tick's VehicleMove, encoded
	attached       []*Object
}

// ID returns the vehicle id, 1..=1999.
func (v *Vehicle) ID() uint16 { return v.id }

// Model returns the vehicle model, 400..=611.
func (v *Vehicle) Model() uint16 { return v.model }

// Position returns the vehicle's position.
func (v *Vehicle) Position() grid.Vec { return v.pos }

// Rotation returns the vehicle's rotation.
func (v *Vehicle) Rotation() Quat { return v.rot }

// Health returns the vehicle's health, 0..=1000.
func (v *Vehicle) Health() uint16 { return v.health }

// Scope returns the vehicle's virtual world and interior.
func (v *Vehicle) Scope() grid.Scope { return v.scope }

// Driver returns the player driving the vehicle, or nil.
func (v *Vehicle) Driver() *Player { return v.driver }

// Rev returns the show revision, new with every change a show carries.
func (v *Vehicle) Rev() uint32 { return v.rev }

// VehicleParams is what create_vehicle takes.
type VehicleParams struct {
	Model          uint16 // 400..=611
	Pos            grid.Vec
	Rot            Quat // zero: no rotation
	Color1, Color2 uint8
	Scope          grid.Scope
	// Respawn is how long the vehicle may stand without a driver before it
	// returns to its spawn pose (the creation pose); 0 never.
	Respawn time.Duration
}

// CreateVehicle creates a vehicle with the lowest free id and returns it.
// Model, position and rotation are checked with VehicleShow's send rules.
func (w *World) CreateVehicle(vp VehicleParams) (uint16, error) {
	vp.Rot = vp.Rot.orIdentity()
	if vp.Respawn < 0 {
		return 0, &ArgError{Func: "create_vehicle", Arg: "respawn", Rule: fmt.Sprintf("must not be negative, got %v", vp.Respawn)}
	}
	v := &Vehicle{model: vp.Model, color1: vp.Color1, color2: vp.Color2, pos: vp.Pos, rot: vp.Rot,
		health: MaxVehicleHealth, scope: vp.Scope, spawnPos: vp.Pos, spawnRot: vp.Rot, respawn: vp.Respawn,
		idleSince: w.now, setAt: w.now}
	v.id = 1 // a valid id for the check
	if err := v.show().CheckSend(); err != nil {
		return 0, fieldArgErr("create_vehicle", err)
	}
	v.id = 0
	for id := 1; id <= MaxVehicles; id++ {
		if w.ents.vehicles[id] == nil {
			v.id = uint16(id)
			break
		}
	}
	if v.id == 0 {
		return 0, stateErr("create_vehicle", "vehicle", "all %d vehicle ids are taken", MaxVehicles)
	}
	w.ents.vehicles[v.id] = v
	w.ents.vehicleN++
	if v.respawn > 0 {
		w.prims.vtick.respawners++
	}
	v.rev = w.nextVehicleRev()
	g := w.ents.vehicleGrid.Get(v.scope)
	v.h = g.Insert(uint32(v.id), v.pos, VehicleStreamDistance)
	g.SetRev(v.h, v.rev)
	w.announceVehicle(v)
	return v.id, nil
}

// Vehicle returns the vehicle with the id, or nil.
func (w *World) Vehicle(id uint16) *Vehicle {
	if id == 0 || int(id) >= len(w.ents.vehicles) {
		return nil
	}
	return w.ents.vehicles[id]
}

// Vehicles returns the number of vehicles.
func (w *World) Vehicles() int { return w.ents.vehicleN }

// DeleteVehicle deletes a vehicle: every player it is shown to gets a hide
// (critical), and the objects attached to it are deleted with their chains.
func (w *World) DeleteVehicle(id uint16) error {
	v := w.Vehicle(id)
	if v == nil {
		return stateErr("delete_vehicle", "vehicle", "no vehicle %d", id)
	}
	w.deleteChains(v.attached)
	v.attached = nil
	if v.driver != nil {
		v.driver.ent.vehicle = nil
	}
	g := w.ents.vehicleGrid.Get(v.scope)
	g.Remove(v.h)
	if g.Len() == 0 {
		w.ents.vehicleGrid.Prune(v.scope)
	}
	w.ents.vehicles[id] = nil
	w.ents.vehicleN--
	if v.respawn > 0 {
		w.prims.vtick.respawners--
	}
	w.vehicleShownChanged(v)
	w.vehicleGone(id) // labels and blips attached to it (attach.go)
	return nil
}

// SetVehiclePose places a vehicle (checked like on creation), in another
// scope if sc differs: every player it is shown to gets a new show, and
// what is attached follows (resent when the interior changed).
func (w *World) SetVehiclePose(id uint16, pos grid.Vec, rot Quat, sc grid.Scope) error {
	v := w.Vehicle(id)
	if v == nil {
		return stateErr("set_vehicle_pose", "vehicle", "no vehicle %d", id)
	}
	show := v.show()
	rot = rot.orIdentity()
	show.X, show.Y, show.Z = pos.X, pos.Y, pos.Z
	show.QX, show.QY, show.QZ, show.QW = rot.X, rot.Y, rot.Z, rot.W
	if err := show.CheckSend(); err != nil {
		return fieldArgErr("set_vehicle_pose", err)
	}
	w.placeVehicle(v, pos, rot, sc)
	return nil
}

// RespawnVehicle returns a vehicle to its spawn pose with full health and no
// driver; the objects attached to it stay attached.
func (w *World) RespawnVehicle(id uint16) error {
	v := w.Vehicle(id)
	if v == nil {
		return stateErr("respawn_vehicle", "vehicle", "no vehicle %d", id)
	}
	w.respawnVehicle(v)
	return nil
}

func (w *World) respawnVehicle(v *Vehicle) {
	if v.driver != nil {
		v.driver.ent.vehicle = nil
		v.driver = nil
	}
	v.health = MaxVehicleHealth
	v.vel = grid.Vec{}
	v.idleSince = w.now
	w.placeVehicle(v, v.spawnPos, v.spawnRot, v.scope)
}

// placeVehicle moves v by a command: a new rev, the grid, the views around
// the old and new point, and what is attached.
func (w *World) placeVehicle(v *Vehicle, pos grid.Vec, rot Quat, sc grid.Scope) {
	w.vehicleShownChanged(v) // viewers at the old point
	interior := sc.Interior != v.scope.Interior
	if sc != v.scope {
		g := w.ents.vehicleGrid.Get(v.scope)
		g.Remove(v.h)
		if g.Len() == 0 {
			w.ents.vehicleGrid.Prune(v.scope)
		}
		v.h = w.ents.vehicleGrid.Get(sc).Insert(uint32(v.id), pos, VehicleStreamDistance)
		v.scope = sc
	} else {
		w.ents.vehicleGrid.Get(sc).Move(v.h, pos)
	}
	v.pos, v.rot, v.setAt = pos, rot, w.now
	if v.driver == nil {
		v.idleSince = w.now // placed by the gamemode: the idle time starts again
	}
	v.rev = w.nextVehicleRev()
	w.ents.vehicleGrid.Get(v.scope).SetRev(v.h, v.rev) // the grid's version moves with the rev (vehicleSteady)
	w.announceVehicle(v)
	w.attachedFollow(v.attached, v.scope, v.pos, interior)
}

// nextVehicleRev returns a rev no vehicle had: ids are reused, so a new
// vehicle on an id a viewer still has shown never matches the old show.
func (w *World) nextVehicleRev() uint32 {
	w.ents.vehicleRev++
	return w.ents.vehicleRev
}

// announceVehicle makes the vehicle views around v compute again: around
// its last announce point too, like a player's (announcePlayer).
func (w *World) announceVehicle(v *Vehicle) {
	objects := len(v.attached) > 0
	if v.announced && v.announceScope == v.scope && v.announceAt != v.pos {
		w.announce(v.scope, v.announceAt, objects)
	}
	w.announce(v.scope, v.pos, objects)
	v.announceAt, v.announceScope, v.announced = v.pos, v.scope, true
}

// vehicleShownChanged makes every player who has v shown compute again.
func (w *World) vehicleShownChanged(v *Vehicle) {
	for _, q := range w.players {
		if q == nil {
			continue
		}
		if _, ok := q.ent.vehiclesV.Shown(uint32(v.id)); ok {
			q.ent.vehicleAt.Invalidate()
			q.ent.objectAt.Invalidate()
		}
	}
}

// driverSync applies the driver policy to an accepted sync.
func (w *World) driverSync(p *Player, s *wire.PlayerSync) {
	e := &p.ent
	var v *Vehicle
	if s.State == 2 {
		v = w.Vehicle(s.VehicleID)
	}
	if e.vehicle != nil && e.vehicle != v {
		e.vehicle.driver = nil
		e.vehicle.idleSince = w.now
		e.vehicle = nil
	}
	if s.State != 2 {
		return
	}
	pos := grid.Vec{X: s.X, Y: s.Y, Z: s.Z}
	var since time.Duration // a new driver gets in where the vehicle stands
	if v != nil && v.driver == p {
		since = w.now.Sub(v.setAt)
	}
	if v == nil || v.scope != p.scope || (v.driver != nil && v.driver != p) || !within(pos, v.pos, DriverSlack, since) ||
		driverMove(s).CheckSend() != nil { // the transport checks these ranges; the world holds without it
		w.stats.DriverRefused++
		return
	}
	v.driver, e.vehicle = p, v
	v.pos, v.rot, v.setAt = pos, Quat{s.QX, s.QY, s.QZ, s.QW}, w.now
	v.vel = grid.Vec{X: s.VX, Y: s.VY, Z: s.VZ}
	v.health = s.VehicleHealth
	w.vehicleMoved(v)
	w.ents.vehicleGrid.Get(v.scope).Move(v.h, pos)
	if !v.announced || grid.Dist2(v.announceAt, pos) > EntityRequery*EntityRequery {
		w.announceVehicle(v)
	}
	w.attachedFollow(v.attached, v.scope, v.pos, false)
}

// driverMove is the VehicleMove a driver's sync makes.
func driverMove(s *wire.PlayerSync) *wire.VehicleMove {
	return &wire.VehicleMove{VehicleID: s.VehicleID, X: s.X, Y: s.Y, Z: s.Z, QX: s.QX, QY: s.QY, QZ: s.QZ, QW: s.QW,
		VX: s.VX, VY: s.VY, VZ: s.VZ, Health: s.VehicleHealth}
}

// tickVehicleRespawns respawns the idle vehicles whose delay passed.
func (w *World) tickVehicleRespawns(now time.Time) {
	if w.prims.vtick.respawners == 0 {
		return // no vehicle has a delay: nothing to read (vehicle_tick.go)
	}
	w.prims.vtick.reads += uint64(len(w.ents.vehicles))
	for _, v := range w.ents.vehicles {
		if v == nil || v.respawn == 0 || v.driver != nil || now.Sub(v.idleSince) < v.respawn {
			continue
		}
		if v.pos != v.spawnPos || v.rot != v.spawnRot || v.health != MaxVehicleHealth {
			w.respawnVehicle(v)
		}
	}
}

// streamVehicles reconciles q's view of vehicles when it is due.
func (w *World) streamVehicles(q *Player) {
	e := &q.ent
	if !q.hasPos || q.gone || q.left {
		return
	}
	if !e.vehicleAt.Due(q.pos, EntityRequery) && !(q.vehLast.left && e.vehiclesV.Pending() > 0) {
		q.vehLast.left = false // asked only after a reconcile that left ops (as streamPickups)
		return
	}
	w.streamVehiclesDue(q)
	q.vehLast.left = e.vehiclesV.Pending() > 0
}

// streamVehiclesDue reconciles q's view of vehicles: steady, by a step, or
// from the grid's answer.
func (w *World) streamVehiclesDue(q *Player) {
	e := &q.ent
	w.ents.passes[1]++
	g := w.ents.vehicleGrid.Lookup(q.scope)
	if w.vehiclesSteady(q, g) {
		e.vehicleAt.Mark(q.pos)
		return
	}
	if !w.vehicleStep(q, g) {
		// The grid's answer (radius: the stream distance) is the wanted set.
		wants := w.ents.wants[:0]
		var sum uint64
		w.ents.hits = w.ents.hits[:0]
		if g != nil {
			w.ents.hits = g.Nearest(q.pos, VehicleLimit, w.ents.hits)
			for _, h := range w.ents.hits {
				wants = append(wants, stream.Want{ID: h.Key, Rev: h.Rev, Dist2: h.Dist2})
				sum += stream.Mix(h.Key, h.Rev)
			}
		}
		q.vehLast.set(q.scope, g, q.pos, grid.CutOf(w.ents.hits, VehicleLimit), len(wants), sum)
		w.ents.ops = e.vehiclesV.Reconcile(wants, q.conn.Free()-SendReserve, stream.HidesFirst, w.ents.ops[:0])
		w.ents.wants = wants
	}
	e.vehicleAt.Mark(q.pos)
	for _, op := range w.ents.ops {
		id := uint16(op.ID)
		if v := w.ents.vehicles[id]; v != nil && len(v.attached) > 0 {
			e.objectAt.Invalidate() // the objects on v come and go with v
		}
		show := &w.ents.vshow
		*show = wire.VehicleShow{VehicleID: id}
		if op.Show {
			w.ents.vehicles[id].fill(show)
			e.shownV = addID(e.shownV, id)
		} else {
			e.shownV = removeID(e.shownV, id)
		}
		w.send(q, show, lane.Critical)
	}
}

// show returns the vehicle's show packet.
func (v *Vehicle) show() *wire.VehicleShow {
	s := new(wire.VehicleShow)
	v.fill(s)
	return s
}

// fill writes the vehicle's show into s.
func (v *Vehicle) fill(s *wire.VehicleShow) {
	*s = wire.VehicleShow{VehicleID: v.id, Active: 1, Model: v.model, Color1: v.color1, Color2: v.color2,
		X: v.pos.X, Y: v.pos.Y, Z: v.pos.Z, QX: v.rot.X, QY: v.rot.Y, QZ: v.rot.Z, QW: v.rot.W, Health: v.health}
}

// normalized returns the quaternion scaled to unit length (a driver's may
// be off by 2 %), or no rotation for the zero quaternion.
func (q Quat) normalized() Quat {
	n := math.Sqrt(float64(q.X*q.X + q.Y*q.Y + q.Z*q.Z + q.W*q.W))
	if n == 0 {
		return Quat{W: 1}
	}
	k := float32(1 / n)
	return Quat{q.X * k, q.Y * k, q.Z * k, q.W * k}
}
