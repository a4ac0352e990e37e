// Package mirror is the client SDK's mirror of the world: the state a game
// client holds after applying what the server sent it, with every
// client-side rule of world.md and docs/protocol.md.
//
// A Mirror starts from ServerHello (clock, weather, garage doors, the own
// player id) and is fed, in order, the reliable events the lane delivers
// and the unreliable snapshots (PlayerMove, VehicleMove), each already
// passed through its CheckRecv; the mirror's per-entity sequence check is
// the client's only one (ApplySnapshot says whether it took a snapshot).
// Time is passed in: Apply takes the arrival
// time, Advance runs what depends on time (the clock, object movement, the
// gang zones' flashing phase). The accessors return copies; nothing they
// return aliases the mirror.
//
// What the mirror holds, and the rules it applies:
//   - pickups, placed at 1/8 m after checking model and position once more;
//     a show of a shown pickup replaces it; Touches says which pickups the
//     local player touches and when to report them (PickupTouch);
//   - labels (VisibleLabels: not drawn when attached to an entity the client
//     is not shown, or farther than draw_distance), checkpoints, blips (an
//     attached blip follows its shown entity), gang zones (drawn in zone_id
//     order, flashing with a client-kept phase), colshape outlines (drawn
//     only during an edit session);
//   - objects: uniform linear movement on the client's clock, attached
//     poses through the chain, no collision when broken or on a bone, the
//     chain deleted with its parent;
//   - other players and vehicles with per-entity sequence numbers;
//   - the local player's landing, skin, health, armour, weapons, wanted
//     level and waypoint; weather, garage doors and the game clock.
//
// The local player moves by itself between landings: the caller reports
// where the game has it with SetLocalPose (objects attached to the local
// player follow it) and passes its position to Touches and VisibleLabels.
//
// Mirror is not safe for concurrent use: the client's loop goroutine owns it.
package mirror

import (
	"time"

	"dlmp/internal/wire"
)

// Stats counts what the mirror dropped or refused. Every count is a rule of
// the spec applied to input that passed the decoder.
type Stats struct {
	StaleMoves      uint64 // PlayerMove / VehicleMove whose seq was not above the last
	UnshownMoves    uint64 // PlayerMove / VehicleMove for an entity not shown
	PickupsRefused  uint64 // PickupSync shows that failed the placement check
	ObjectsRefused  uint64 // ObjectState shows of a model that is not an object model
	ObjectsOrphaned uint64 // objects deleted because their parent went
	Ignored         uint64 // packets the mirror holds no state for (chat, netvars, explosions, ...)
}

// Mirror is the world as one client sees it. Not safe for concurrent use:
// the client's loop goroutine owns it.
type Mirror struct {
	now time.Time // the latest time given to New, Apply or Advance

	clock   gameClock
	weather uint8
	garage  uint64

	local    local
	waypoint waypoint

	pickups    map[uint32]*pickup
	labels     map[uint32]*wire.Label3D
	checkpts   map[uint32]*wire.Checkpoint
	blips      map[uint32]*wire.Blip
	zones      map[uint32]*wire.GangZone
	flashEpoch time.Time // the phase origin of every flashing zone
	colshapes  map[uint32]*wire.ColshapeShape
	edit       wire.EditState

	objects  map[uint32]*object
	children map[entityKey][]uint32 // parent → ids of objects attached to it
	moving   []*object              // objects with a movement in progress

	players  shown[player]  // by player id, with their moves' seqs
	vehicles shown[vehicle] // by vehicle id, with their moves' seqs

	spares spares // hidden copies for the next shows
	stats  Stats
}

// New returns the mirror in its join state: the clock (held or running),
// the weather and the garage doors of hello, set at once, and the own player
// id. hello must have passed CheckRecv.
func New(hello *wire.ServerHello, now time.Time) *Mirror {
	m := &Mirror{
		now:        now,
		weather:    hello.Weather,
		garage:     hello.GarageOpen,
		local:      newLocal(hello.PlayerID),
		pickups:    make(map[uint32]*pickup),
		labels:     make(map[uint32]*wire.Label3D),
		checkpts:   make(map[uint32]*wire.Checkpoint),
		blips:      make(map[uint32]*wire.Blip),
		zones:      make(map[uint32]*wire.GangZone),
		flashEpoch: now,
		colshapes:  make(map[uint32]*wire.ColshapeShape),
		objects:    make(map[uint32]*object),
		children:   make(map[entityKey][]uint32),
		players:    newShown[player](wire.MaxPlayers),
		vehicles:   newShown[vehicle](wire.MaxVehicleID + 1),
	}
	if hello.ClockRunning == 1 {
		m.clock.run(hello.Hours, hello.Minutes, hello.MinuteMs, now)
	} else {
		m.clock.hold(hello.Hours, hello.Minutes, now)
	}
	return m
}

// Apply applies one packet that arrived at now: a reliable event, in event
// order, or a fresh unreliable snapshot. The packet must have passed its
// CheckRecv; the mirror keeps no reference to it. Time first runs to now
// (Advance), so a movement starts from the arrival.
func (m *Mirror) Apply(p wire.Packet, now time.Time) {
	m.Advance(now)
	switch p := p.(type) {
	case *wire.PickupSync:
		m.applyPickup(p)
	case *wire.Label3D:
		applyShow(m.labels, &m.spares.labels, p.LabelID, p.Active, p)
	case *wire.Checkpoint:
		applyShow(m.checkpts, &m.spares.checkpts, p.CheckpointID, p.Active, p)
	case *wire.Blip:
		applyShow(m.blips, &m.spares.blips, p.BlipID, p.Active, p)
	case *wire.GangZone:
		applyShow(m.zones, &m.spares.zones, p.ZoneID, p.Active, p)
	case *wire.ColshapeShape:
		applyShow(m.colshapes, &m.spares.colshapes, p.ColshapeID, p.Active, p)
	case *wire.EditState:
		m.edit = *p
	case *wire.ObjectState:
		m.applyObject(p)
	case *wire.PlayerShow:
		m.applyPlayerShow(p)
	case *wire.PlayerMove:
		m.applyPlayerMove(p)
	case *wire.VehicleShow:
		m.applyVehicleShow(p)
	case *wire.VehicleMove:
		m.applyVehicleMove(p)
	case *wire.SetTime:
		m.clock.hold(p.Hours, p.Minutes, m.now)
	case *wire.RunClock:
		m.clock.run(p.Hours, p.Minutes, p.MinuteMs, m.now)
	case *wire.SetWeather:
		m.weather = p.Weather
	case *wire.GarageDoors:
		m.garage = p.Open
	case *wire.SetWanted:
		m.local.wanted = p.Level
	case *wire.SetSkin:
		m.local.skin = p.Skin
	case *wire.SpawnPlayer:
		m.applySpawn(p)
	case *wire.RespawnPlayer:
		m.local.respawn(p)
	case *wire.TeleportPlayer:
		m.local.teleport(p)
	case *wire.GiveWeapon:
		m.local.giveWeapon(p.Weapon, p.Ammo)
	case *wire.GiveHealth:
		m.local.health = min(100, m.local.health+p.Amount)
	case *wire.GiveArmor:
		m.local.armour = min(100, m.local.armour+p.Amount)
	case *wire.SetWaypoint:
		m.applySetWaypoint(p)
	default:
		m.stats.Ignored++
	}
}

// ApplySnapshot applies an unreliable snapshot as Apply does and reports
// whether it is fresh: a PlayerMove or VehicleMove whose seq is above the
// last of its entity id, shown or not (the seq is recorded; only a shown
// entity moves). A stale one, or one of an entity not shown, is counted in
// Stats. This check is the client's only one (decision 0320).
func (m *Mirror) ApplySnapshot(p wire.Packet, now time.Time) bool {
	switch p := p.(type) {
	case *wire.PlayerMove:
		return m.ApplyPlayerMove(p, now)
	case *wire.VehicleMove:
		m.Advance(now)
		return m.applyVehicleMove(p)
	}
	m.Apply(p, now)
	return true
}

// ApplyPlayerMove is ApplySnapshot of a PlayerMove, without the
// interface: the client's path for the bulk of its traffic.
func (m *Mirror) ApplyPlayerMove(p *wire.PlayerMove, now time.Time) bool {
	m.Advance(now)
	return m.applyPlayerMove(p)
}

// applyShow applies the shared active contract of the per-player
// primitives: active = 1 shows or replaces (the mirror keeps its own copy,
// in a hidden one's when it has one), active = 0 hides.
func applyShow[K comparable, T any](set map[K]*T, free *spare[T], id K, active uint8, p *T) {
	if active == 0 {
		if held, ok := set[id]; ok {
			delete(set, id)
			free.put(held)
		}
		return
	}
	if held, ok := set[id]; ok {
		*held = *p
		return
	}
	c := free.get()
	*c = *p
	set[id] = c
}

// maxSpare bounds the hidden copies kept per kind.
const maxSpare = 32

// spare holds the copies of hidden primitives for the next shows: a crowd's
// name labels come and go every second (their players' copies are kept by
// shown), and each show
// would otherwise allocate. Nothing outside the mirror holds them: the
// accessors return copies.
type spare[T any] []*T

func (s *spare[T]) get() *T {
	if n := len(*s); n > 0 {
		p := (*s)[n-1]
		(*s)[n-1] = nil
		*s = (*s)[:n-1]
		return p
	}
	return new(T)
}

func (s *spare[T]) put(p *T) {
	if len(*s) < maxSpare {
		*s = append(*s, p)
	}
}

// spares are the mirror's spare copies by kind.
type spares struct {
	labels    spare[wire.Label3D]
	checkpts  spare[wire.Checkpoint]
	blips     spare[wire.Blip]
	zones     spare[wire.GangZone]
	colshapes spare[wire.ColshapeShape]
}

// Advance runs the time-dependent state to now: the clock, object
// movement and the flashing phase. A now before the latest time given is
// ignored, so time never runs backward.
func (m *Mirror) Advance(now time.Time) {
	if !now.After(m.now) {
		return
	}
	m.now = now
	m.advanceObjects(now)
}

// Now returns the latest time the mirror has been run to.
func (m *Mirror) Now() time.Time { return m.now }

// Stats returns the counts of dropped and refused input.
func (m *Mirror) Stats() Stats { return m.stats }

// Time returns the game's time of day now.
func (m *Mirror) Time() GameTime { return gameTime(m.clock.minutes(m.now)) }

// ClockRunning reports whether the clock runs and its rate in real
// milliseconds per game minute (0 when held).
func (m *Mirror) ClockRunning() (running bool, minuteMs uint32) {
	return m.clock.running, m.clock.minuteMs
}

// ClockRate returns the clock's current speed as a multiple of its
// minute_ms rate: 1 when running normally, within 0.5..1.5 while a resync
// corrects a small drift, 0 when held.
func (m *Mirror) ClockRate() float64 { return m.clock.rate(m.now) }

// Weather returns the weather id, 0..22.
func (m *Mirror) Weather() uint8 { return m.weather }

// GarageDoors returns the door mask: bit id set = the door of garage id is
// open.
func (m *Mirror) GarageDoors() uint64 { return m.garage }

// GarageOpen reports whether the door of garage id (0..49) is open.
func (m *Mirror) GarageOpen(id int) bool {
	return id >= 0 && id < 64 && m.garage&(1<<id) != 0
}
