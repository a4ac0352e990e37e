package mirror

import "dlmp/internal/wire"

// The map waypoint (world.md SetWaypoint, PlayerWaypoint). SetWaypoint
// replaces the player's waypoint (active = 0 removes it) once the player is
// spawned: one that arrives before the first spawn waits, the latest
// winning, and is set by the spawn. The client reports its waypoint with
// PlayerWaypoint on every change: a waypoint set by SetWaypoint (always
// answered, so the server learns what was actually set), and the player's
// own clicks and removals (SetMapWaypoint). Nothing is reported before the
// first spawn: the server would drop it.

// Waypoint is a waypoint on the map.
type Waypoint struct {
	Active bool    // false: no waypoint
	X, Y   float64 // meters; meaningful when Active
}

type waypoint struct {
	cur     Waypoint
	pending *Waypoint // a SetWaypoint waiting for the spawn
	report  bool      // cur changed and is not reported yet
}

func (m *Mirror) applySetWaypoint(p *wire.SetWaypoint) {
	w := Waypoint{Active: p.Active == 1}
	if w.Active {
		w.X, w.Y = float64(p.X), float64(p.Y)
	}
	if !m.local.spawned {
		m.waypoint.pending = &w
		return
	}
	m.waypoint.cur, m.waypoint.report = w, true
}

func (m *Mirror) applyPendingWaypoint() {
	if w := m.waypoint.pending; w != nil {
		m.waypoint.cur, m.waypoint.report, m.waypoint.pending = *w, true, nil
	}
}

// SetMapWaypoint records a change the player (or the game, on arrival) made
// to the waypoint; a change is reported by the next WaypointReport. Setting
// the waypoint it already has is not a change.
func (m *Mirror) SetMapWaypoint(w Waypoint) {
	if !w.Active {
		w.X, w.Y = 0, 0
	}
	if w == m.waypoint.cur {
		return
	}
	m.waypoint.cur, m.waypoint.report = w, true
}

// Waypoint returns the waypoint on the local player's map.
func (m *Mirror) Waypoint() Waypoint { return m.waypoint.cur }

// WaypointReport returns the PlayerWaypoint the client should send, once
// per change: ok is false when there is nothing to report or the player
// has not spawned. The caller fills in token and event_id.
func (m *Mirror) WaypointReport() (p wire.PlayerWaypoint, ok bool) {
	if !m.waypoint.report || !m.local.spawned {
		return wire.PlayerWaypoint{}, false
	}
	m.waypoint.report = false
	w := m.waypoint.cur
	if w.Active {
		p.Active, p.X, p.Y = 1, float32(w.X), float32(w.Y)
	}
	return p, true
}
