package world

import (
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
)

// Life is where a player is in the spawn cycle.
type Life uint8

const (
	// NotSpawned: connected, on the spawn screen (no SpawnPlayer yet).
	NotSpawned Life = iota
	// Alive: spawned (SpawnPlayer or RespawnPlayer sent) and not dead.
	Alive
	// Dead: a PlayerSync reported state 4; RespawnPlayer brings them back.
	Dead
)

func (l Life) String() string {
	switch l {
	case NotSpawned:
		return "not spawned"
	case Alive:
		return "alive"
	case Dead:
		return "dead"
	}
	return "Life(?)"
}

// Player is one connected player. Its methods read the world's view of
// them; commands that change them are methods on [World].
type Player struct {
	// Immutable after Join.
	id   uint16
	uid  uint32 // UserID: climbs with every join (identity.go)
	conn Conn

	// Owned by the world goroutine.
	left bool // Leave was called
	gone bool // a critical send failed; the transport will call Leave

	life   Life
	scope  grid.Scope
	pos    grid.Vec  // last accepted PlayerSync position, or the last landing point
	posAt  time.Time // when pos was set
	hasPos bool
	state  uint8 // PlayerSync state of the last accepted sync
	health uint8
	armour uint8
	skin   uint16
	wanted uint8

	landed  uint32  // `landed` of the last accepted sync
	landing landing // the landing the client has not confirmed yet

	pickups    *stream.View
	pickAnchor stream.Anchor
	// pickupsLeft: the pickup view had ops left after its last reconcile
	// (streamPickups).
	pickupsLeft bool
	latched     []uint32 // static pickups touched in this entry (see touch.go)

	wp waypointState

	ent    playerEnt             // streaming of players, vehicles and objects (players.go)
	objCut objectCut             // what the object view was last computed from (object_stream.go)
	spots  [cacheKinds]cacheSpot // the box of each kind's last query (cache.go)
	// vehLast is what the vehicle view was last computed from (vehicle.go).
	vehLast vehicleQuery
	prims   primState   // labels, checkpoints, blips, gang zones, colshapes (prims.go)
	edit    EditSession // the edit session (edit.go)
}

func newPlayer(id uint16, c Conn) *Player {
	p := &Player{id: id, conn: c, pickups: stream.New(stream.Pickups.Limit())}
	p.ent.init(id)
	return p
}

// ID returns the player id, 0..=999.
func (p *Player) ID() uint16 { return p.id }

// Life returns where the player is in the spawn cycle.
func (p *Player) Life() Life { return p.life }

// Scope returns the player's virtual world and interior.
func (p *Player) Scope() grid.Scope { return p.scope }

// Position returns the last accepted position (or the last landing point)
// and whether there is one.
func (p *Player) Position() (grid.Vec, bool) { return p.pos, p.hasPos }

// Health returns the last known health (from PlayerSync, a spawn or a
// respawn).
func (p *Player) Health() uint8 { return p.health }

// Armour returns the last known armour.
func (p *Player) Armour() uint8 { return p.armour }

// Skin returns the player's skin.
func (p *Player) Skin() uint16 { return p.skin }

// Wanted returns the player's wanted level.
func (p *Player) Wanted() uint8 { return p.wanted }

// Waypoint returns the waypoint the server holds for the player.
func (p *Player) Waypoint() Waypoint { return p.wp.held }

// PickupShown reports whether the pickup is currently streamed to the player.
func (p *Player) PickupShown(id uint32) bool {
	_, ok := p.pickups.Shown(id)
	return ok
}
