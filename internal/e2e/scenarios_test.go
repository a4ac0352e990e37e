package e2e

import (
	"fmt"
	"testing"
	"time"

	"dlmp/client/mirror"
	"dlmp/internal/config"
	"dlmp/internal/grid"
	"dlmp/internal/wire"
	"dlmp/internal/world"
)

func syncAt(pos grid.Vec, health uint8) wire.PlayerSync {
	return wire.PlayerSync{State: wire.StateOnFoot, X: pos.X, Y: pos.Y, Z: pos.Z, Health: health}
}

// both runs a scenario directly and through the 10 % lossy relay.
func both(t *testing.T, f func(t *testing.T, lossy bool)) {
	for _, lossy := range []bool{false, true} {
		name := "direct"
		if lossy {
			name = "loss10"
		}
		t.Run(name, func(t *testing.T) { t.Parallel(); f(t, lossy) })
	}
}

func TestJoinReceivesTheWorld(t *testing.T) {
	both(t, func(t *testing.T, lossy bool) {
		e := start(t, lossy)
		c := e.dial()
		eventually(t, "the spawn and both pickups arrive", 10*time.Second, func() bool {
			return view(c, func(m *mirror.Mirror) bool { return m.Local().Spawned && len(m.Pickups()) == 2 })
		})
		if h := c.Hello(); h.Weather != 1 || h.Hours != 12 {
			t.Fatalf("hello %+v, want the config's weather 1 at 12:00", h)
		}
		if st := c.Stats(); st.Lost != 0 || st.Invalid != 0 {
			t.Fatalf("client stats %+v", st)
		}
	})
}

// TestCollectAfterDamage is the spec's collectible flow: at full health the
// gamemode refuses the health pickup (nothing consumed, nothing granted, the
// client keeps re-touching and the interaction fires again); after damage it
// collects it and grants health; the pickup respawns later.
func TestCollectAfterDamage(t *testing.T) {
	both(t, func(t *testing.T, lossy bool) {
		e := start(t, lossy)
		c := e.dial()
		walkTo(t, c, healthAt, 100)
		interactions := func() (n int) {
			e.do(func(w *world.World, m *mode) { n = len(m.interactions) })
			return
		}
		eventually(t, "two refused interactions at full health", 10*time.Second, func() bool { return interactions() >= 2 })
		if !view(c, func(m *mirror.Mirror) bool { _, ok := m.Pickup(e.mode.health); return ok }) {
			t.Fatal("the refused pickup disappeared")
		}
		c.SetSync(syncAt(healthAt, 40)) // took damage
		eventually(t, "the pickup is collected and health granted", 10*time.Second, func() bool {
			return view(c, func(m *mirror.Mirror) bool {
				_, shown := m.Pickup(e.mode.health)
				return !shown && m.Local().Health == 100
			})
		})
		eventually(t, "the pickup respawns", 10*time.Second, func() bool {
			return view(c, func(m *mirror.Mirror) bool { _, ok := m.Pickup(e.mode.health); return ok })
		})
	})
}

// TestStaticLatch: a static pickup interacts once per entry.
func TestStaticLatch(t *testing.T) {
	both(t, func(t *testing.T, lossy bool) {
		e := start(t, lossy)
		c := e.dial()
		count := func() (n int) {
			e.do(func(w *world.World, m *mode) {
				for _, i := range m.interactions {
					if i.Pickup == m.static {
						n++
					}
				}
			})
			return
		}
		walkTo(t, c, staticAt, 100)
		eventually(t, "one interaction on entry", 10*time.Second, func() bool { return count() == 1 })
		time.Sleep(2500 * time.Millisecond) // the client re-touches every second while inside
		if n := count(); n != 1 {
			t.Fatalf("%d interactions while staying inside, want 1", n)
		}
		c.SetSync(syncAt(spawnAt, 100))
		time.Sleep(500 * time.Millisecond)
		c.SetSync(syncAt(staticAt, 100))
		eventually(t, "a second interaction on re-entry", 10*time.Second, func() bool { return count() == 2 })
	})
}

// TestWaypointRoundTrip: a burst of waypoint changes raises at most 5 events
// at once, then the latest one when the limit allows; a SetWaypoint from the
// server is applied by the client and its answer raises nothing.
func TestWaypointRoundTrip(t *testing.T) {
	both(t, func(t *testing.T, lossy bool) {
		e := start(t, lossy)
		c := e.dial()
		walkTo(t, c, spawnAt, 100)
		for i := range 8 {
			c.Waypoint(true, float32(100*(i+1)), 50)
			time.Sleep(60 * time.Millisecond) // one change per client tick
		}
		events := func() (wps []world.Waypoint) {
			e.do(func(w *world.World, m *mode) { wps = append(wps, m.waypoints...) })
			return
		}
		eventually(t, "the latest waypoint's event", 10*time.Second, func() bool {
			wps := events()
			return len(wps) > 0 && wps[len(wps)-1].X == 800
		})
		if n := len(events()); n > 8 || n < 6 {
			t.Fatalf("%d events for 8 changes, want 5 at once, then the latest", n)
		}
		var p *world.Player
		e.do(func(w *world.World, m *mode) {
			p = w.Player(c.PlayerID())
			w.SetWaypoint(p, world.Waypoint{Active: true, X: -300, Y: 20})
		})
		before := len(events())
		eventually(t, "the client applies SetWaypoint", 10*time.Second, func() bool {
			return view(c, func(m *mirror.Mirror) bool { wp := m.Waypoint(); return wp.Active && wp.X == -300 })
		})
		time.Sleep(500 * time.Millisecond)
		if n := len(events()); n != before {
			t.Fatalf("the client's answer to SetWaypoint raised %d events", n-before)
		}
	})
}

// TestRunningClockAgrees: with the clock running, the client's time stays
// within a game minute of the server's.
func TestRunningClockAgrees(t *testing.T) {
	both(t, func(t *testing.T, lossy bool) {
		e := start(t, lossy, func(c *config.Config) { c.Clock.Mode, c.Clock.MinuteMs = "running", 100 })
		c := e.dial()
		for range 5 {
			time.Sleep(300 * time.Millisecond)
			var sh, sm uint8
			e.do(func(w *world.World, m *mode) { sh, sm, _, _ = w.Clock() })
			ct := view(c, func(m *mirror.Mirror) mirror.GameTime { return m.Time() })
			server := int(sh)*60 + int(sm)
			cl := int(ct.Hours)*60 + int(ct.Minutes)
			d := (cl - server + 1440) % 1440
			if d > 720 {
				d = 1440 - d
			}
			if d > 1 {
				t.Fatalf("client at %02d:%02d, server at %02d:%02d", ct.Hours, ct.Minutes, sh, sm)
			}
		}
	})
}

// TestReconnectReceivesItsWorld: a client that leaves and comes back gets
// the visible world again.
func TestReconnectReceivesItsWorld(t *testing.T) {
	both(t, func(t *testing.T, lossy bool) {
		e := start(t, lossy)
		for i := range 2 {
			c := e.dial()
			eventually(t, fmt.Sprintf("connection %d receives both pickups", i+1), 10*time.Second, func() bool {
				return view(c, func(m *mirror.Mirror) bool { return len(m.Pickups()) == 2 })
			})
			c.Close()
		}
	})
}
