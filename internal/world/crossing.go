package world

import (
	"time"
)

// Checkpoint crossings (world.md Checkpoint). The owner is inside a
// checkpoint while they are alive (spawned, and their last sync does not
// report them dead: the exit comes before the death event), the checkpoint is in their scope and
// their last accepted PlayerSync position is inside its form; death and a
// change of scope are therefore exits. The check runs on every accepted
// sync, on a landing into another scope and on a change of the checkpoint;
// a same-scope landing (a teleport, a respawn) waits for the sync that
// confirms it.
//
// Every crossing is queued and raised as checkpoint_enter or
// checkpoint_leave through a per-connection token bucket (CrossingBurst at
// once, CrossingRate per second); what the bucket does not allow waits for
// the next sync or tick, in order (docs/decisions/0116-checkpoint-crossings.md).
// A deleted checkpoint's queued crossings are dropped without an event. The
// queue is bounded: past MaxQueuedCrossings, a crossing that undoes the
// checkpoint's last queued one cancels it instead (an enter and a leave that
// the gamemode would see back to back), counted in Stats.
const (
	CrossingBurst      = 20  // crossings raised at once
	CrossingRate       = 4.0 // crossings per second, refilled
	MaxQueuedCrossings = 64
)

type crossing struct {
	id    uint32
	enter bool
}

// crossings is a player's queue of checkpoint crossings not raised yet and
// its token bucket.
type crossings struct {
	queue   []crossing
	tokens  float64
	at      time.Time
	started bool
}

func (c *crossings) take(now time.Time) bool {
	if !c.started {
		c.tokens, c.at, c.started = CrossingBurst, now, true
	} else if dt := now.Sub(c.at).Seconds(); dt > 0 {
		c.tokens = min(CrossingBurst, c.tokens+dt*CrossingRate)
		c.at = now
	}
	if c.tokens < 1 {
		return false
	}
	c.tokens--
	return true
}

// push queues a crossing; it reports false when it cancelled the
// checkpoint's last queued crossing instead (the queue was full).
func (c *crossings) push(x crossing) bool {
	if len(c.queue) >= MaxQueuedCrossings {
		for i := len(c.queue) - 1; i >= 0; i-- {
			if c.queue[i].id == x.id {
				c.queue = append(c.queue[:i], c.queue[i+1:]...)
				return false
			}
		}
	}
	c.queue = append(c.queue, x)
	return true
}

// drop forgets the queued crossings of a deleted checkpoint.
func (c *crossings) drop(id uint32) {
	kept := c.queue[:0]
	for _, x := range c.queue {
		if x.id != id {
			kept = append(kept, x)
		}
	}
	c.queue = kept
}

// checkCheckpoints queues the crossings of p's checkpoints since the last
// check and raises what the bucket allows.
func (w *World) checkCheckpoints(p *Player) {
	s := &p.prims
	if s.frozen || p.left {
		return
	}
	for _, id := range s.own {
		c := w.prims.cps[id]
		in := p.life == Alive && p.state != 4 && s.hasSync && c.params.Scope == p.scope && c.contains(s.syncPos)
		if in == c.inside {
			continue
		}
		c.inside = in
		if !s.cross.push(crossing{id: id, enter: in}) {
			w.stats.CrossingsCancelled++
		}
	}
	w.flushCrossings(p, w.now)
}

// flushCrossings raises the queued crossings the bucket allows, in order.
// An event handler may delete checkpoints or create new ones: the queue is
// read afresh for each event.
func (w *World) flushCrossings(p *Player, now time.Time) {
	q := &p.prims.cross
	for len(q.queue) > 0 && !p.left {
		if !q.take(now) {
			return
		}
		x := q.queue[0]
		q.queue = q.queue[1:]
		if x.enter {
			w.gm.CheckpointEnter(p, x.id)
		} else {
			w.gm.CheckpointLeave(p, x.id)
		}
	}
}
