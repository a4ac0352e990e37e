package world

import (
	"math"
	"time"

	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// Waypoints (world.md PlayerWaypoint, SetWaypoint). The world holds each
// player's map waypoint. A PlayerWaypoint is dropped (the lane has acked it)
// when the player is not spawned yet, active is neither 0 nor 1, a
// coordinate is not a number or outside ±3000, or it repeats what the world
// holds: a point within WaypointRepeat meters of the held one, or "none"
// again. Otherwise it is held at once and raises player_waypoint within a
// per-connection token bucket (WaypointBurst at once, WaypointRate per
// second); past it, an event with the latest held waypoint fires on the
// first tick the bucket allows. SetWaypoint from the gamemode is held at
// once without an event and cancels a deferred one; the client's answer then
// repeats it and is dropped. Waypoints are never relayed to anyone.
const (
	WaypointRepeat = 1   // meters: a point this close to the held one is not a change
	WaypointBurst  = 5   // events at once
	WaypointRate   = 2.0 // events per second, refilled
	WaypointRange  = 3000
)

// Waypoint is a map waypoint: a point (x, y) or none.
type Waypoint struct {
	Active bool
	X, Y   float32
}

type waypointState struct {
	held    Waypoint
	tokens  float64
	at      time.Time // when tokens was last refilled
	started bool
	pending bool // an event is owed for held
}

// refill adds the tokens earned since the last refill.
func (s *waypointState) refill(now time.Time) {
	if !s.started {
		s.tokens, s.at, s.started = WaypointBurst, now, true
		return
	}
	if dt := now.Sub(s.at).Seconds(); dt > 0 {
		s.tokens = min(WaypointBurst, s.tokens+dt*WaypointRate)
		s.at = now
	}
}

// take spends a token if there is one.
func (s *waypointState) take(now time.Time) bool {
	s.refill(now)
	if s.tokens < 1 {
		return false
	}
	s.tokens--
	return true
}

func (w *World) playerWaypoint(p *Player, m *wire.PlayerWaypoint) {
	wp := Waypoint{Active: m.Active == 1, X: m.X, Y: m.Y}
	if !wp.Active {
		wp.X, wp.Y = 0, 0
	}
	if p.life == NotSpawned || m.Active > 1 || wp.Active && !(inRange(m.X) && inRange(m.Y)) || p.wp.repeats(wp) {
		w.stats.WaypointDropped++
		return
	}
	p.wp.held = wp
	if p.wp.take(w.now) {
		p.wp.pending = false
		w.gm.PlayerWaypoint(p, wp)
		return
	}
	p.wp.pending = true
	w.stats.WaypointLimited++
}

// repeats reports whether wp is what the world already holds.
func (s *waypointState) repeats(wp Waypoint) bool {
	if wp.Active != s.held.Active {
		return false
	}
	if !wp.Active {
		return true
	}
	dx, dy := float64(wp.X-s.held.X), float64(wp.Y-s.held.Y)
	return dx*dx+dy*dy <= WaypointRepeat*WaypointRepeat
}

func inRange(v float32) bool {
	return !math.IsNaN(float64(v)) && v >= -WaypointRange && v <= WaypointRange
}

// tickWaypoint fires a deferred player_waypoint once the bucket allows.
func (w *World) tickWaypoint(p *Player, now time.Time) {
	if p.wp.pending && p.wp.take(now) {
		p.wp.pending = false
		w.gm.PlayerWaypoint(p, p.wp.held)
	}
}

// SetWaypoint puts a waypoint on the player's map, or removes it with
// Waypoint{} (SetWaypoint, critical). The world holds it at once and raises
// no player_waypoint.
func (w *World) SetWaypoint(p *Player, wp Waypoint) error {
	pkt := &wire.SetWaypoint{X: wp.X, Y: wp.Y}
	if wp.Active {
		pkt.Active = 1
	} else {
		pkt.X, pkt.Y, wp.X, wp.Y = 0, 0, 0, 0
	}
	if err := pkt.CheckSend(); err != nil {
		return argErr("set_waypoint", "waypoint", err)
	}
	p.wp.held = wp
	p.wp.pending = false
	return w.send(p, pkt, lane.Critical)
}
