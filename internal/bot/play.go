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
	"dlmp/internal/wire"
)

// bot is one headless player.
type bot struct {
	cfg        *Config
	rng        *rand.Rand
	behaviours []string
	c          *client.Client

	mu          sync.Mutex // guards the state the SDK's callbacks write
	spawned     bool
	dead        bool
	x, y, z     float32
	heading     float32
	pickups     map[uint32][3]float32
	checkpoints map[uint32][3]float32
	touched     map[uint32]time.Time
	res         result
}

func (b *bot) has(behaviour string) bool { return slices.Contains(b.behaviours, behaviour) }

// run connects, plays for the duration, and closes.
func (b *bot) run(ctx context.Context) result {
	b.pickups, b.checkpoints, b.touched = map[uint32][3]float32{}, map[uint32][3]float32{}, map[uint32]time.Time{}
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	c, err := client.Dial(dctx, client.Config{Server: b.cfg.Server, SyncRate: b.cfg.Rate, OnPacket: b.onPacket, Log: b.cfg.Log})
	cancel()
	if err != nil {
		b.cfg.Log.Debug("bot: connect failed", "err", err)
		return result{}
	}
	b.c = c
	b.res.connected = true
	end := time.After(b.cfg.Duration)
	step := time.NewTicker(time.Second / time.Duration(b.cfg.Rate))
	defer step.Stop()
	second := time.NewTicker(time.Second)
	defer second.Stop()
	for done := false; !done; {
		select {
		case <-ctx.Done():
			done = true
		case <-end:
			done = true
		case <-c.Done():
			var de *client.DisconnectError
			if errors.As(c.Err(), &de) {
				b.res.disconnect = wire.ReasonName(de.Reason)
			} else {
				b.res.disconnect = "error: " + fmt.Sprint(c.Err())
			}
			done = true
		case <-step.C:
			b.move(1 / float32(b.cfg.Rate))
		case <-second.C:
			b.everySecond()
		}
	}
	b.mu.Lock()
	b.res.stats = c.Stats()
	res := b.res
	b.mu.Unlock()
	c.Close()
	return res
}

// onPacket runs on the SDK's loop goroutine.
func (b *bot) onPacket(p wire.Packet) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch x := p.(type) {
	case *wire.SpawnPlayer:
		b.spawned, b.dead = true, false
		b.x, b.y, b.z, b.heading = x.X, x.Y, x.Z, x.Heading
	case *wire.RespawnPlayer:
		b.spawned, b.dead = true, false
		b.x, b.y, b.z, b.heading = x.X, x.Y, x.Z, x.Heading
	case *wire.TeleportPlayer:
		b.x, b.y, b.z, b.heading = x.X, x.Y, x.Z, x.Heading
	case *wire.PickupSync:
		if x.Active == 1 {
			b.pickups[x.PickupID] = [3]float32{x.X, x.Y, x.Z}
		} else {
			delete(b.pickups, x.PickupID)
		}
	case *wire.Checkpoint:
		if x.Active == 1 {
			b.checkpoints[x.CheckpointID] = [3]float32{x.X, x.Y, x.Z}
		} else {
			delete(b.checkpoints, x.CheckpointID)
		}
	}
}

// runSpeed is how fast a bot moves, m/s.
const runSpeed = 6

// move advances the bot by dt seconds towards its goal and syncs.
func (b *bot) move(dt float32) {
	b.mu.Lock()
	if !b.spawned {
		b.mu.Unlock()
		b.c.SetSync(wire.PlayerSync{State: 0, Health: 100})
		return
	}
	goal, id, isPickup, ok := b.goal()
	if ok {
		dx, dy := goal[0]-b.x, goal[1]-b.y
		d := float32(math.Hypot(float64(dx), float64(dy)))
		if d < 1 {
			b.x, b.y, b.z = goal[0], goal[1], goal[2]
			if isPickup && time.Since(b.touched[id]) > time.Second {
				b.touched[id] = time.Now()
				b.res.touches++
				b.mu.Unlock()
				b.c.Touch(id)
				b.mu.Lock()
			}
		} else {
			step := min(d, runSpeed*dt)
			b.x += dx / d * step
			b.y += dy / d * step
			b.heading = float32(math.Mod(math.Atan2(float64(dx), float64(dy))*180/math.Pi+360, 360))
		}
	} else if b.has(Wander) {
		if b.rng.IntN(40) == 0 {
			b.heading = float32(b.rng.IntN(360))
		}
		rad := float64(b.heading) * math.Pi / 180
		b.x = clamp(b.x+float32(math.Sin(rad))*runSpeed*dt, 5900)
		b.y = clamp(b.y+float32(math.Cos(rad))*runSpeed*dt, 5900)
	}
	s := wire.PlayerSync{State: 1, X: b.x, Y: b.y, Z: b.z, Heading: b.heading, Health: 100}
	if b.dead {
		s.State = 4
	}
	b.mu.Unlock()
	b.c.SetSync(s)
}

// goal picks where to go: a checkpoint when racing, else a pickup.
func (b *bot) goal() (pos [3]float32, id uint32, pickup, ok bool) {
	best := float32(math.MaxFloat32)
	consider := func(m map[uint32][3]float32, isPickup bool) {
		for k, p := range m {
			d := (p[0]-b.x)*(p[0]-b.x) + (p[1]-b.y)*(p[1]-b.y)
			if d < best || d == best && k < id {
				best, pos, id, pickup, ok = d, p, k, isPickup, true
			}
		}
	}
	if b.has(Race) {
		consider(b.checkpoints, false)
	}
	if !ok && b.has(Pickups) {
		consider(b.pickups, true)
	}
	return
}

func clamp(v, lim float32) float32 { return max(-lim, min(lim, v)) }

var lines = []string{"hi", "gg", "anyone racing?", "nice map", "brb"}

// everySecond runs the slow behaviours.
func (b *bot) everySecond() {
	if b.has(Chat) && b.rng.IntN(10) == 0 {
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
