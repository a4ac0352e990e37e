package world

import (
	"math"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// PlayerSync acceptance (docs/decisions/0070-player-sync-acceptance.md). The
// transport has already dropped a sync whose seq is not above the last and
// one that breaks a stateless rule; the world accepts a sync as the player's
// "last accepted position" only if
//
//   - the player is spawned (syncs before the first spawn carry no state);
//   - the position is finite and within world bounds;
//   - it is not from before the last landing: while a landing
//     (SpawnPlayer, RespawnPlayer, TeleportPlayer) is unconfirmed, `landed`
//     must be above the `landed` reported before it was sent, and the
//     position within LandingSlack plus the speed allowance of the landing
//     point;
//   - interior and world are the player's scope;
//   - the player cannot have got there at MaxSpeed: the distance from the
//     last accepted position is at most SyncSlack + MaxSpeed × the time since.
//
// A refused sync is counted by reason and changes nothing; the speed
// allowance grows with time, so a player whose real position diverged is
// accepted again after a while.
const (
	// MaxSpeed is the fastest a player may move, m/s: the wire's velocity
	// bound, above the game's fastest aircraft.
	MaxSpeed = 200
	// SyncSlack is the distance, meters, always allowed between two
	// accepted syncs (jitter, a sync right after a landing).
	SyncSlack = 5
	// LandingSlack is how far, meters, the first sync after a landing may
	// be from the landing point (ground placement, a fall), before the speed
	// allowance.
	LandingSlack = 20
)

// SyncDrop is why a PlayerSync was not accepted.
type SyncDrop uint8

const (
	SyncBounds       SyncDrop = iota // position not finite or outside world bounds
	SyncStaleLanding                 // sampled before the client applied the last landing
	SyncScope                        // interior or world is not the player's scope
	SyncSpeed                        // farther from the last accepted position than MaxSpeed allows
	syncDropReasons
)

// landing is the last landing sent and not yet confirmed by a sync.
type landing struct {
	wait   bool
	base   uint32 // the player's `landed` when it was sent
	at     grid.Vec
	sentAt time.Time
}

func (w *World) playerSync(p *Player, s *wire.PlayerSync) {
	pos := grid.Vec{X: s.X, Y: s.Y, Z: s.Z}
	if !inWorld(pos) {
		w.stats.SyncDropped[SyncBounds]++
		return
	}
	if p.life == NotSpawned {
		return // the client keeps the session alive before its first spawn
	}
	if p.landing.wait {
		if s.Landed <= p.landing.base || !within(pos, p.landing.at, LandingSlack, w.now.Sub(p.landing.sentAt)) {
			w.stats.SyncDropped[SyncStaleLanding]++
			return
		}
	}
	if (grid.Scope{World: int32(s.World), Interior: s.Interior}) != p.scope {
		w.stats.SyncDropped[SyncScope]++
		return
	}
	if !p.landing.wait && p.hasPos && !within(pos, p.pos, SyncSlack, w.now.Sub(p.posAt)) {
		w.stats.SyncDropped[SyncSpeed]++
		return
	}
	p.landing.wait = false
	p.landed = max(p.landed, s.Landed)
	p.setPos(pos, w.now)
	p.state, p.health, p.armour = s.State, s.Health, s.Armour
	w.clearLatches(p)
	w.syncAccepted(p, s) // players, vehicles, objects
	w.primsSynced(p)     // checkpoint and colshape crossings
	if s.State == 4 && p.life == Alive {
		p.life = Dead
		w.gm.PlayerDeath(p)
	}
}

// setPos moves the player's stream center.
func (p *Player) setPos(pos grid.Vec, now time.Time) {
	if !p.hasPos || pos != p.pos {
		p.pos, p.hasPos = pos, true
	}
	p.posAt = now
}

// within reports whether b is within slack meters of a plus MaxSpeed × dt.
func within(a, b grid.Vec, slack float32, dt time.Duration) bool {
	r := float64(slack) + MaxSpeed*max(dt.Seconds(), 0)
	return float64(grid.Dist2(a, b)) <= r*r
}

// inWorld reports whether p is finite and within world bounds.
func inWorld(p grid.Vec) bool {
	return in(p.X, -wire.WorldXY, wire.WorldXY) && in(p.Y, -wire.WorldXY, wire.WorldXY) &&
		in(p.Z, wire.WorldMinZ, wire.WorldMaxZ)
}

func in(v, lo, hi float32) bool { return v >= lo && v <= hi && !math.IsNaN(float64(v)) }
