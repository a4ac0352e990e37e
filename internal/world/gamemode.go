package world

// Gamemode receives the world's events. The Lua runtime (package script)
// binds to it; a Go gamemode embeds [Base] and overrides what it needs.
// Every method runs on the world goroutine, inside the call that raised it,
// and may call the world's command API.
type Gamemode interface {
	// PlayerJoin: a player connected (player join). The gamemode decides
	// when they spawn ([World.Spawn]).
	PlayerJoin(p *Player)
	// PlayerLeave: the player left; reason is the Disconnect reason.
	PlayerLeave(p *Player, reason uint8)
	// PlayerSpawn: the world sent SpawnPlayer or RespawnPlayer.
	PlayerSpawn(p *Player)
	// PlayerDeath: the player's PlayerSync reported state dead (4) while
	// alive; raised once per life.
	PlayerDeath(p *Player)
	// Chat: a line the player typed (ClientChat); the gamemode decides
	// whether and to whom it goes ([World.BroadcastChat], [World.SendChat]).
	Chat(p *Player, text string)
	// PickupInteract: an accepted touch (pickup_interact).
	PickupInteract(e PickupInteraction)
	// PlayerWaypoint: the player changed their map waypoint
	// (player_waypoint), within the per-connection rate limit.
	PlayerWaypoint(p *Player, wp Waypoint)
	// ObjectMoveEnd: an object's movement reached its target
	// (object_move_end), computed by the server (objects).
	ObjectMoveEnd(id uint32)
	// CheckpointEnter: the player entered one of their checkpoints
	// (checkpoint_enter), within the per-connection crossing limit.
	CheckpointEnter(p *Player, checkpoint uint32)
	// CheckpointLeave: the player left one of their checkpoints, died or
	// changed scope while inside (checkpoint_leave).
	CheckpointLeave(p *Player, checkpoint uint32)
	// ColshapeEnter: the player's position entered a colshape
	// (colshape_enter, MTA's onColShapeHit).
	ColshapeEnter(p *Player, colshape uint32)
	// ColshapeLeave: the player's position left a colshape, or the player
	// changed scope while inside (colshape_leave, MTA's onColShapeLeave).
	ColshapeLeave(p *Player, colshape uint32)
	// EntityEdit: an edit by a player in an edit session (the edit event),
	// already checked against the session, the player's view and the rev.
	// Returning true applies it; false refuses it (the player's copy gets
	// a critical correction).
	EntityEdit(e Edit) bool
}

// Base is a Gamemode that ignores every event.
type Base struct{}

func (Base) PlayerJoin(*Player)               {}
func (Base) PlayerLeave(*Player, uint8)       {}
func (Base) PlayerSpawn(*Player)              {}
func (Base) PlayerDeath(*Player)              {}
func (Base) Chat(*Player, string)             {}
func (Base) PickupInteract(PickupInteraction) {}
func (Base) PlayerWaypoint(*Player, Waypoint) {}
func (Base) ObjectMoveEnd(uint32)             {}
func (Base) CheckpointEnter(*Player, uint32)  {}
func (Base) CheckpointLeave(*Player, uint32)  {}
func (Base) ColshapeEnter(*Player, uint32)    {}
func (Base) ColshapeLeave(*Player, uint32)    {}
func (Base) EntityEdit(Edit) bool             { return false } // edits are refused unless the gamemode takes them

// Behavior is a pickup's touch policy.
type Behavior uint8

const (
	// Collectible pickups raise pickup_interact on every accepted touch
	// until the gamemode consumes them with [World.CollectPickup].
	Collectible Behavior = iota + 1
	// Static pickups stay; they raise pickup_interact once per entry per
	// player.
	Static
)

func (b Behavior) String() string {
	switch b {
	case Collectible:
		return "collectible"
	case Static:
		return "static"
	}
	return "Behavior(?)"
}

// PickupInteraction is the pickup_interact event.
type PickupInteraction struct {
	Player   *Player
	Pickup   uint32 // pickup id
	Behavior Behavior
	Model    uint32
}
