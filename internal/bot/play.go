package bot

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"dlmp/client"
	"dlmp/client/mirror"
	"dlmp/internal/wire"
)

// bot is one headless player. Its state is the client loop's: the bot
// moves and runs its slow behaviours in the client's OnTick, so that 1000
// bots need no timer each beside their clients' own.
type bot struct {
	cfg        *Config
	rng        *rand.Rand
	behaviours []string
	ticker     *client.Ticker // ticks the bot's client, shared with other bots
	c          *client.Client
	ready      chan struct{} // closed once c is set: OnTick may run before

	lastMove, lastSecond time.Time

	mu      sync.Mutex // guards res
	landed  uint32     // the landing the bot's position follows
	x, y, z float32
	heading float32
	res     result
}

func (b *bot) has(behaviour string) bool { return slices.Contains(b.behaviours, behaviour) }

// run connects, plays for the duration, and closes.
func (b *bot) run(ctx context.Context) result {
	b.ready = make(chan struct{})
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	c, err := client.Dial(dctx, client.Config{Server: b.cfg.Server, SyncRate: b.cfg.Rate, Log: b.cfg.Log, OnTick: b.tick, Ticker: b.ticker})
	cancel()
	if err != nil {
		b.cfg.Log.Debug("bot: connect failed", "err", err)
		return result{}
	}
	b.c = c
	close(b.ready)
	end := time.NewTimer(b.cfg.Duration)
	defer end.Stop()
	disconnect := ""
	select {
	case <-ctx.Done():
	case <-end.C:
	case <-c.Done():
		var de *client.DisconnectError
		if errors.As(c.Err(), &de) {
			disconnect = wire.ReasonName(de.Reason)
		} else {
			disconnect = "error: " + fmt.Sprint(c.Err())
		}
	}
	c.Close() // the loop, and with it OnTick, has stopped when it returns
	b.mu.Lock()
	defer b.mu.Unlock()
	b.res.connected = true
	b.res.disconnect = disconnect
	b.res.stats = c.Stats()
	return b.res
}

// tick is the client's OnTick: the bot moves by the time since its last
// move (its sync rate is the client's to keep) and runs the slow
// behaviours once a second.
func (b *bot) tick(now time.Time) {
	select {
	case <-b.ready:
	default:
		return // Dial has not returned yet
	}
	if b.lastMove.IsZero() {
		b.lastMove, b.lastSecond = now, now
	}
	dt := min(now.Sub(b.lastMove), 250*time.Millisecond)
	b.lastMove = now
	b.move(float32(dt.Seconds()))
	if now.Sub(b.lastSecond) >= time.Second {
		b.lastSecond = now
		b.everySecond()
	}
}

// runSpeed is how fast a bot moves, m/s.
const runSpeed = 6

// move advances the bot by dt seconds towards its goal and syncs. The bot
// sees the world through the SDK's mirror, asking it for the nearest goal
// only (no copy of every checkpoint and pickup per tick); the SDK detects
// the pickup touches at the synced position and sends them.
func (b *bot) move(dt float32) {
	var loc mirror.Local
	var goal [3]float32
	var ok bool
	b.c.World(func(m *mirror.Mirror) {
		loc = m.Local()
		if !loc.Spawned {
			return
		}
		if loc.Landed != b.landed { // spawned, respawned or teleported: start from there
			b.landed = loc.Landed
			b.x, b.y, b.z, b.heading = float32(loc.Pos.X), float32(loc.Pos.Y), float32(loc.Pos.Z), float32(loc.Heading)
		}
		goal, ok = b.goal(m)
	})
	if !loc.Spawned {
		b.c.SetSync(wire.PlayerSync{State: 0, Health: 100})
		return
	}
	if ok {
		dx, dy := goal[0]-b.x, goal[1]-b.y
		d := float32(math.Hypot(float64(dx), float64(dy)))
		step := min(d, runSpeed*dt)
		if d > 0 {
			b.x += dx / d * step
			b.y += dy / d * step
			b.heading = float32(math.Mod(math.Atan2(float64(dx), float64(dy))*180/math.Pi+360, 360))
		}
		if d < 1 {
			b.z = goal[2]
		}
	} else if b.has(Wander) {
		if b.rng.IntN(40) == 0 {
			b.heading = float32(b.rng.IntN(360))
		}
		rad := float64(b.heading) * math.Pi / 180
		b.x = clamp(b.x+float32(math.Sin(rad))*runSpeed*dt, 5900)
		b.y = clamp(b.y+float32(math.Cos(rad))*runSpeed*dt, 5900)
	}
	b.c.SetSync(wire.PlayerSync{State: 1, X: b.x, Y: b.y, Z: b.z, Heading: b.heading, Health: 100})
}

// goal is where the bot runs: the nearest shown checkpoint (race), else
// the nearest shown pickup (pickups), on the ground plane.
func (b *bot) goal(m *mirror.Mirror) ([3]float32, bool) {
	if b.has(Race) {
		if cp, ok := m.NearestCheckpoint(float64(b.x), float64(b.y)); ok {
			return [3]float32{float32(cp.Pos.X), float32(cp.Pos.Y), float32(cp.Pos.Z)}, true
		}
	}
	if b.has(Pickups) {
		if p, ok := m.NearestPickup(float64(b.x), float64(b.y)); ok {
			pos := p.Pos()
			return [3]float32{float32(pos.X), float32(pos.Y), float32(pos.Z)}, true
		}
	}
	return [3]float32{}, false
}

func clamp(v, lim float32) float32 { return max(-lim, min(lim, v)) }

var lines = []string{"hi", "gg", "anyone racing?", "nice map", "brb"}

// everySecond runs the slow behaviours.
func (b *bot) everySecond() {
	if b.has(Chat) && b.rng.IntN(100) == 0 { // a line every 100 s on average: 10 lines/s from 1000 bots
		if b.c.Chat(lines[b.rng.IntN(len(lines))]) == nil {
			b.mu.Lock()
			b.res.chats++
			b.mu.Unlock()
		}
	}
	if b.has(Waypoints) && b.rng.IntN(10) == 0 {
		x, y := float32(b.rng.IntN(5000)-2500), float32(b.rng.IntN(5000)-2500)
		if b.c.Waypoint(b.rng.IntN(4) != 0, x, y) == nil {
			b.mu.Lock()
			b.res.waypoints++
			b.mu.Unlock()
		}
	}
	if rtt := b.c.RTT(); rtt > 0 {
		b.mu.Lock()
		b.res.rtts = append(b.res.rtts, rtt)
		b.mu.Unlock()
	}
}
