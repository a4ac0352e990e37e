// Package world is the server-authoritative world engine: players, their
// spawns and landings, pickups and their streaming, the clock and weather,
// garage doors and map waypoints. It turns state into packets; the gamemode
// ([Gamemode]) changes state through the command API (methods on [World])
// and never writes a packet.
//
// One goroutine owns a World: the transport calls [World.Join],
// [World.Packet], [World.Leave] and [World.Tick] on it, the gamemode's
// callbacks run inside those calls, and nothing here locks. Time is always
// passed in; the world reads no clock.
//
// The transport side of a player is a [Conn]: the world encodes every
// Server → Client packet (event_id left 0: the lane writes it) and queues it
// as critical or droppable (see docs/protocol.md, Lanes). A critical send
// that fails marks the player gone: the world sends it nothing more and
// waits for the transport's Leave.
package world

import (
	"fmt"
	"math"
	"time"

	"dlmp/internal/config"
	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// Conn is the transport's side of one connected player (fixed seam).
type Conn interface {
	// Send queues one encoded Server → Client reliable packet (event_id bytes are
	// written by the lane). A critical send that finds the queue full returns an
	// error and the transport disconnects the player (send_queue_full); the world
	// then receives Leave. msg is only read during the call.
	Send(msg []byte, class lane.Class) error
	// SendUnreliable sends one encoded unreliable packet (PlayerMove, VehicleMove).
	SendUnreliable(msg []byte)
	// Free is how many slots the reliable send queue has free.
	Free() int
	// Kick ends the connection with a Disconnect reason (wire.Reason*).
	Kick(reason uint8)
	// Progress (objects: spawn holds, ADR 0125) counts the messages Send
	// accepted so far (queued) and the longest prefix of them the client has
	// acknowledged (acked; a droppable message superseded in the queue counts
	// as acknowledged). acked ≤ queued; both only grow.
	Progress() (queued, acked uint64)
}

// MaxPlayers is the protocol's player limit: ids 0..=999.
const MaxPlayers = 1000

// World is the whole server-owned world. The zero value is not usable: call
// [New].
type World struct {
	// Immutable after New.
	gm         Gamemode
	maxPlayers int
	start      time.Time // New's now: the phase of the players' slow passes (prims.go)
	pickupDist float32   // world.pickup_draw_distance, meters
	rates      rates     // the rules' tick counts at server.tick_hz (rates.go)
	// bruteForce scans every pickup instead of the grid: the baseline the
	// streaming benchmark measures the grid against. Never set outside it.
	bruteForce bool

	// Owned by the world goroutine.
	now     time.Time // the time of the call in progress (Join, Packet, Tick)
	players []*Player // by player id; nil = free slot
	count   int
	joins   uint32 // players ever admitted: the source of UserIDs (identity.go)
	clock   clock
	weather uint8
	garage  uint64

	pickups    map[uint32]*Pickup
	pickupGrid *grid.Scopes
	nextPickup uint32
	respawns   []respawn // inactive pickups waiting for their respawn

	buf   []byte          // encode scratch
	hits  []grid.Hit      // query scratch
	wants []stream.Want   // reconcile scratch
	ops   []stream.Op     // reconcile scratch
	ps    wire.PickupSync // encode scratch
	stats Stats

	// Players, vehicles and objects streamed to players (players.go,
	// vehicle.go, object.go).
	ents  entities
	prims prims // labels, checkpoints, blips, gang zones, colshapes (prims.go)

	caches     caches       // box caches of the streaming passes (cache.go)
	ruledRoots *grid.Scopes // object chain roots with a per-player rule (object_chain.go rootScopes)

	partClock func() time.Duration // read around Tick's parts; nil: not timed (TimeParts)
	parts     [NumParts]time.Duration
	Sub       [6]time.Duration // HACK
}

// The parts of [World.Tick], in the order it runs them, as [World.TickParts]
// reports their time.
const (
	PartClock    = iota // the clock's resync and the pickups' respawns
	PartEntities        // players, vehicles and objects: streaming, moves (tickEntities)
	PartPrims           // the primitives' world pass (tickPrimsWorld)
	PartPlayers         // each player's waypoint, pickups and primitives
	NumParts
)

// PartNames names the parts of Tick, by Part*.
var PartNames = [NumParts]string{"clock", "entities", "prims", "players"}

// TimeParts makes Tick read clock around its parts (NumParts+1 reads a
// tick): the server passes its tick thread's CPU clock. nil stops it. The
// world reads no clock of its own.
func (w *World) TimeParts(clock func() time.Duration) {
	w.partClock = clock
	w.parts = [NumParts]time.Duration{}
}

// TickParts is the time each part of the last Tick took by the clock given
// to TimeParts (zero without one), by Part*.
func (w *World) TickParts() [NumParts]time.Duration { return w.parts }

// Stats counts what the world dropped or refused, by reason.
type Stats struct {
	SyncDropped     [syncDropReasons]uint64    // PlayerSync not accepted, by [SyncDrop]
	TouchRefused    [touchRefuseReasons]uint64 // PickupTouch refused, by [TouchRefusal]
	WaypointDropped uint64                     // PlayerWaypoint dropped (still acked by the lane)
	ChatDropped     uint64                     // ClientChat that breaks a text rule
	WaypointLimited uint64                     // player_waypoint events deferred by the rate limit
	Unhandled       uint64                     // packets the world does not handle
	SendFailed      uint64                     // sends that failed (the player is then gone)
	DriverRefused   uint64                     // driver syncs that did not move their vehicle (vehicle.go)

	CrossingsCancelled uint64 // checkpoint crossings cancelled by a full queue (crossing.go)
	EditsAccepted      uint64 // EntityEdits applied (edit.go)
	EditsRefused       uint64 // EntityEdits refused: no session, not shown, stale rev, or declined
}

// New returns a world configured from c (max_players, the tick rate, pickup
// draw distance, the clock and the weather at start), with gm receiving its
// events (nil for none). now is the server's start time, for a running
// clock's phase.
func New(c config.Config, gm Gamemode, now time.Time) (*World, error) {
	if gm == nil {
		gm = Base{}
	}
	if c.Server.MaxPlayers < 1 || c.Server.MaxPlayers > MaxPlayers {
		return nil, fmt.Errorf("world: server.max_players must be 1..%d, got %d", MaxPlayers, c.Server.MaxPlayers)
	}
	r, err := ratesOf(c.Server.TickHz)
	if err != nil {
		return nil, err
	}
	d := c.World.PickupDrawDistance
	if !(d >= 1 && d <= 1000) {
		return nil, fmt.Errorf("world: world.pickup_draw_distance must be 1..1000, got %v", d)
	}
	w := &World{
		gm:         gm,
		maxPlayers: c.Server.MaxPlayers,
		start:      now,
		pickupDist: float32(d),
		rates:      r,
		now:        now,
		players:    make([]*Player, c.Server.MaxPlayers),
		pickups:    map[uint32]*Pickup{},
		pickupGrid: grid.NewScopes(pickupCell),
		prims:      newPrims(), // labels, checkpoints, blips, gang zones, colshapes
	}
	w.ents.init(c) // players, vehicles, objects
	w.ruledRoots = grid.NewScopes(objectCell)
	w.initCaches()

	if err := w.clock.init(c.Clock, now); err != nil {
		return nil, err
	}
	if err := wire.CheckWeather("SetWeather", uint8(min(c.Clock.Weather, math.MaxUint8))); err != nil || c.Clock.Weather < 0 {
		return nil, fmt.Errorf("world: clock.weather must be 0..22, got %d", c.Clock.Weather)
	}
	w.weather = uint8(c.Clock.Weather)
	return w, nil
}

// Stats returns the counters.
func (w *World) Stats() Stats { return w.stats }

// Players returns the number of connected players.
func (w *World) Players() int { return w.count }

// Player returns the connected player with the id, or nil.
func (w *World) Player(id uint16) *Player {
	if int(id) >= len(w.players) {
		return nil
	}
	return w.players[id]
}

// Join admits a new connection: it takes the lowest free player id, fills
// hello's player_id, clock, weather and garage mask, and raises the
// gamemode's join event. It returns false when every slot is taken (the
// transport answers server_full). A running clock is established at once
// with RunClock (critical), the first event of the stream. Join carries no
// time: the clock is read at the time of the last Tick or Packet, at most
// one tick old.
func (w *World) Join(c Conn, hello *wire.ServerHello) (*Player, bool) {
	id := -1
	for i, p := range w.players {
		if p == nil {
			id = i
			break
		}
	}
	if id < 0 {
		return nil, false
	}
	p := newPlayer(uint16(id), c)
	p.ent.farP = make([][]uint16, w.rates.far) // a far list a phase (player_moves.go)
	w.identify(p)
	w.players[id] = p
	w.count++

	hello.PlayerID = uint16(id)
	w.clock.fillHello(hello, w.now)
	hello.Weather = w.weather
	hello.GarageOpen = w.garage
	if w.clock.mode != clockFrozen {
		w.send(p, w.clock.runPacket(w.now), lane.Critical)
	}
	w.gm.PlayerJoin(p)
	return p, true
}

// Leave forgets a player: their views, latches and waypoint go with them,
// and the gamemode's leave event fires with the reason.
func (w *World) Leave(p *Player, reason uint8) {
	if p == nil || w.players[p.id] != p {
		return
	}
	w.gm.PlayerLeave(p, reason)
	w.playerLeft(p) // players, vehicles, objects
	w.players[p.id] = nil
	w.count--
	p.left = true
	w.leavePrims(p) // labels, checkpoints, blips, gang zones, colshapes
}

// Packet handles one accepted client packet at time now.
func (w *World) Packet(p *Player, pkt wire.Packet, now time.Time) {
	if p == nil || p.left {
		return
	}
	w.now = now
	switch m := pkt.(type) {
	case *wire.PlayerSync:
		w.playerSync(p, m)
	case *wire.PickupTouch:
		w.pickupTouch(p, m.PickupID)
	case *wire.PlayerWaypoint:
		w.playerWaypoint(p, m)
	case *wire.ClientChat:
		w.clientChat(p, m)
	case *wire.EntityEdit:
		w.entityEdit(p, m) // edit sessions (edit.go)
	default:
		w.stats.Unhandled++
	}
}

// Tick runs the world's fixed tick at time now: the clock's resync, pickup
// respawns, deferred waypoint events and the streaming of every player.
// With a clock (TimeParts) it keeps each part's time for TickParts.
func (w *World) Tick(now time.Time) {
	w.now = now
	c0 := w.partTime()
	w.tickClock(now)
	w.tickRespawns(now)
	c1 := w.partTime()
	// Players, vehicles and objects first: an attached label or blip is
	// shown only while its entity is streamed to the recipient, so the
	// primitives reconcile against this tick's player views.
	w.Sub = [6]time.Duration{}
	w.tickEntities(now)
	c2 := w.partTime()
	w.tickPrimsWorld(now) // labels, checkpoints, blips, gang zones, colshapes
	c3 := w.partTime()
	for _, p := range w.players {
		if p == nil || p.gone {
			continue
		}
		a := time.Now()
		w.tickWaypoint(p, now)
		w.streamPickups(p)
		b := time.Now()
		w.tickPrims(p, now) // labels, checkpoints, blips, gang zones, colshapes
		w.Sub[3] += b.Sub(a)
		w.Sub[4] += time.Since(b)
	}
	if w.partClock != nil {
		w.parts = [NumParts]time.Duration{c1 - c0, c2 - c1, c3 - c2, w.partClock() - c3}
	}
}

// partTime reads the parts' clock, 0 without one.
func (w *World) partTime() time.Duration {
	if w.partClock == nil {
		return 0
	}
	return w.partClock()
}

// send checks and encodes pkt (event_id 0) and queues it to p. A packet
// that breaks its send rule is a bug in the caller's validation: it is not
// sent and the error is returned. A failed critical send marks p gone.
func (w *World) send(p *Player, pkt wire.Packet, class lane.Class) error {
	if p.gone || p.left {
		return nil
	}
	if err := pkt.CheckSend(); err != nil {
		return err
	}
	w.buf = pkt.Append(w.buf[:0])
	w.sendEncoded(p, w.buf, class)
	return nil
}

// sendEncoded queues to p a packet already checked and encoded (event_id
// 0): the end of send, and what a label's show, encoded once a rev for
// every player it goes to, is sent with (decision 0295). A failed critical
// send marks p gone.
func (w *World) sendEncoded(p *Player, msg []byte, class lane.Class) {
	if p.gone || p.left {
		return
	}
	if err := p.conn.Send(msg, class); err != nil {
		w.stats.SendFailed++
		p.gone = true // the transport disconnects the player and calls Leave
	}
}

// sendAll sends pkt to every connected player: checked and encoded once,
// as the same bytes go to each (a chat line to 1000 players).
func (w *World) sendAll(pkt wire.Packet, class lane.Class) {
	if pkt.CheckSend() != nil {
		return // send would refuse it for every player alike
	}
	w.buf = pkt.Append(w.buf[:0])
	for _, p := range w.players {
		if p != nil {
			w.sendEncoded(p, w.buf, class)
		}
	}
}
