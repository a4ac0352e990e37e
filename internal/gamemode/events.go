package gamemode

import (
	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/wire"
	"dlmp/internal/world"
)

// The world's events, raised in Lua (dlmp.on). Handlers get positional
// arguments, entities as handles; an event with no handler costs no
// allocation.
//
//	player_connect(player)
//	player_disconnect(player, reason)      reason: "quit", "timeout", "kicked", ...
//	player_spawn(player)
//	player_death(player)
//	chat(player, text)
//	pickup_interact(player, pickup, behavior, model)   behavior: "collectible" or "static"
//	player_waypoint(player, x, y)          x, y nil: the waypoint was removed
//	checkpoint_enter(player, checkpoint)
//	checkpoint_leave(player, checkpoint)
//	colshape_enter(player, colshape)
//	colshape_leave(player, colshape)
//	object_move_end(object)
//	shutdown()

// Events raised while a Lua callback runs (player_spawn from a
// player:spawn in a player_connect handler) are not dispatched inside it:
// they are queued and dispatched in order once the outermost callback has
// returned, still inside the world call that raised them. Handlers never
// run nested, so each runs whole within its own time budget (a nested
// callback would end the outer one's budget watch: script's budget is one
// per VM), and a handler never sees another run in the middle of it. At
// most MaxChained events chain from one outer call; past that they are
// dropped, counted and logged (a spawn handler that spawns again).

// MaxChained bounds the events that callbacks raise during one outer
// call.
const MaxChained = 256

type queued struct {
	event string
	n     int
	args  [4]lua.LValue
}

// listens reports whether the gamemode has a handler for event: the
// arguments are built only then.
func (m *Mode) listens(event string) bool { return m.rt != nil && m.rt.Has(event) }

// fire dispatches event now, or after the running callback.
func (m *Mode) fire(event string, args ...lua.LValue) {
	if m.depth > 0 {
		if len(m.queue) >= MaxChained {
			m.dropped++
			m.log.Error("event dropped: too many events raised by callbacks in one call", "event", event, "limit", MaxChained)
			return
		}
		q := queued{event: event, n: len(args)}
		copy(q.args[:], args)
		m.queue = append(m.queue, q)
		return
	}
	m.depth++
	m.rt.Emit(event, args...)
	m.drain()
	m.depth--
}

// drain dispatches the queued events, and those they raise, in order.
func (m *Mode) drain() {
	for i := 0; i < len(m.queue); i++ {
		q := &m.queue[i]
		m.rt.Emit(q.event, q.args[:q.n]...)
	}
	clear(m.queue)
	m.queue = m.queue[:0]
}

// Dropped counts the events dropped past MaxChained.
func (m *Mode) Dropped() uint64 { return m.dropped }

func (m *Mode) PlayerJoin(p *world.Player) {
	if m.listens("player_connect") {
		m.fire("player_connect", m.player(p))
	}
}

func (m *Mode) PlayerLeave(p *world.Player, reason uint8) {
	if m.listens("player_disconnect") {
		m.fire("player_disconnect", m.player(p), lua.LString(wire.ReasonName(reason)))
	}
	delete(m.players, p) // the world forgets them when this returns
}

func (m *Mode) PlayerSpawn(p *world.Player) {
	if m.listens("player_spawn") {
		m.fire("player_spawn", m.player(p))
	}
}

func (m *Mode) PlayerDeath(p *world.Player) {
	if m.listens("player_death") {
		m.fire("player_death", m.player(p))
	}
}

func (m *Mode) Chat(p *world.Player, txt string) {
	if m.listens("chat") {
		m.fire("chat", m.player(p), lua.LString(txt))
	}
}

func (m *Mode) PickupInteract(e world.PickupInteraction) {
	if m.listens("pickup_interact") {
		m.fire("pickup_interact", m.player(e.Player), m.pickup(e.Pickup), behaviorName(e.Behavior), lua.LNumber(e.Model))
	}
}

func (m *Mode) PlayerWaypoint(p *world.Player, wp world.Waypoint) {
	if !m.listens("player_waypoint") {
		return
	}
	if !wp.Active {
		m.fire("player_waypoint", m.player(p), lua.LNil, lua.LNil)
		return
	}
	m.fire("player_waypoint", m.player(p), lua.LNumber(wp.X), lua.LNumber(wp.Y))
}

func (m *Mode) CheckpointEnter(p *world.Player, id uint32) {
	if m.listens("checkpoint_enter") {
		m.fire("checkpoint_enter", m.player(p), m.checkpoint(id))
	}
}

func (m *Mode) CheckpointLeave(p *world.Player, id uint32) {
	if m.listens("checkpoint_leave") {
		m.fire("checkpoint_leave", m.player(p), m.checkpoint(id))
	}
}

func (m *Mode) ColshapeEnter(p *world.Player, id uint32) {
	if m.listens("colshape_enter") {
		m.fire("colshape_enter", m.player(p), m.colshape(id))
	}
}

func (m *Mode) ColshapeLeave(p *world.Player, id uint32) {
	if m.listens("colshape_leave") {
		m.fire("colshape_leave", m.player(p), m.colshape(id))
	}
}

func (m *Mode) ObjectMoveEnd(id uint32) {
	if m.listens("object_move_end") {
		m.fire("object_move_end", m.object(id))
	}
}

// Behavior names, made once: an LString in an interface allocates.
var (
	collectibleName lua.LValue = lua.LString(world.Collectible.String())
	staticName      lua.LValue = lua.LString(world.Static.String())
)

func behaviorName(b world.Behavior) lua.LValue {
	if b == world.Static {
		return staticName
	}
	return collectibleName
}
