package world

import (
	"dlmp/internal/grid"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// Checkpoints (world.md Checkpoint). A checkpoint belongs to one player: it
// is shown to them while they are in its scope, the 16 nearest when they
// have more. The server computes entry and exit from the last accepted
// PlayerSync position of a living, spawned player (crossing.go); deleting a
// checkpoint and the player leaving raise no event, and the player's
// checkpoints go with them.

// Checkpoint kinds (wire.Checkpoint kind).
const (
	CheckpointNormal     = wire.CheckpointNormal
	CheckpointRace       = wire.CheckpointRace
	CheckpointRaceFinish = wire.CheckpointRaceFinish
	CheckpointAir        = wire.CheckpointAir
	CheckpointAirFinish  = wire.CheckpointAirFinish
)

// CheckpointMinHalfHeight is the least half-height, meters, of a ground
// checkpoint's cylinder: max(radius, 5) up and down.
const CheckpointMinHalfHeight = 5

// CheckpointParams is what create_checkpoint takes and a change replaces.
type CheckpointParams struct {
	Kind   uint8     // CheckpointNormal .. CheckpointAirFinish
	Pos    grid.Vec  // within world bounds
	Next   *grid.Vec // where it points; nil for no next point (copied on create and change)
	Radius float32   // (0, 100]
	Color  uint32    // 0xRRGGBB
	Scope  grid.Scope
}

// Checkpoint is one player's checkpoint. Read it with [World.Checkpoint].
type Checkpoint struct {
	params CheckpointParams
	id     uint32
	rev    uint32
	owner  *Player
	inside bool // the player is inside (by the crossings computed so far)
}

// ID returns the checkpoint id.
func (c *Checkpoint) ID() uint32 { return c.id }

// Owner returns the player the checkpoint belongs to.
func (c *Checkpoint) Owner() *Player { return c.owner }

// Params returns the checkpoint's current parameters.
func (c *Checkpoint) Params() CheckpointParams {
	cp := c.params
	if cp.Next != nil {
		n := *cp.Next
		cp.Next = &n
	}
	return cp
}

// Inside reports whether the owner is inside, by the crossings computed so
// far (events may still be deferred by the rate limit).
func (c *Checkpoint) Inside() bool { return c.inside }

// Checkpoint returns the checkpoint with the id, or nil.
func (w *World) Checkpoint(id uint32) *Checkpoint { return w.prims.cps[id] }

// CreateCheckpoint gives p a checkpoint and returns its id (one counter with
// labels, blips and gang zones). The parameters are checked with
// Checkpoint's send rules.
func (w *World) CreateCheckpoint(p *Player, cp CheckpointParams) (uint32, error) {
	if p == nil || p.left || w.players[p.id] != p {
		return 0, stateErr("create_checkpoint", "player", "must be a connected player")
	}
	if err := checkCheckpoint("create_checkpoint", &cp); err != nil {
		return 0, err
	}
	p.prims.init()
	c := &Checkpoint{params: cp, id: w.prims.nextID(), rev: 1, owner: p}
	w.prims.cps[c.id] = c
	p.prims.own = append(p.prims.own, c.id)
	w.reconcileCheckpoints(p)
	w.checkCheckpoints(p)
	return c.id, nil
}

// SetCheckpoint replaces a checkpoint's parameters: its owner gets the new
// show, and entry and exit are computed again at once.
func (w *World) SetCheckpoint(id uint32, cp CheckpointParams) error {
	c := w.prims.cps[id]
	if c == nil {
		return stateErr("set_checkpoint", "checkpoint", "no checkpoint %d", id)
	}
	if err := checkCheckpoint("set_checkpoint", &cp); err != nil {
		return err
	}
	c.params = cp
	c.rev++
	w.reconcileCheckpoints(c.owner)
	w.checkCheckpoints(c.owner)
	return nil
}

// DeleteCheckpoint deletes a checkpoint: its owner gets a hide, and no
// event is raised (a deferred crossing of it is dropped).
func (w *World) DeleteCheckpoint(id uint32) error {
	c := w.prims.cps[id]
	if c == nil {
		return stateErr("delete_checkpoint", "checkpoint", "no checkpoint %d", id)
	}
	delete(w.prims.cps, id)
	p := c.owner
	for i, o := range p.prims.own {
		if o == id {
			p.prims.own = append(p.prims.own[:i], p.prims.own[i+1:]...)
			break
		}
	}
	p.prims.cross.drop(id)
	w.reconcileCheckpoints(p)
	return nil
}

func checkCheckpoint(fn string, cp *CheckpointParams) error {
	if cp.Next != nil {
		n := *cp.Next
		cp.Next = &n
	}
	var pkt wire.Checkpoint
	(&Checkpoint{params: *cp}).fill(&pkt)
	return fieldArgErr2(fn, pkt.CheckSend())
}

// contains reports whether pos is inside: a ground checkpoint is a cylinder
// (radius horizontally, max(radius, 5) up and down), an air one a sphere.
func (c *Checkpoint) contains(pos grid.Vec) bool {
	dx, dy, dz := pos.X-c.params.Pos.X, pos.Y-c.params.Pos.Y, pos.Z-c.params.Pos.Z
	r2 := c.params.Radius * c.params.Radius
	if c.params.Kind == CheckpointAir || c.params.Kind == CheckpointAirFinish {
		return dx*dx+dy*dy+dz*dz <= r2
	}
	h := max(c.params.Radius, CheckpointMinHalfHeight)
	return dx*dx+dy*dy <= r2 && dz >= -h && dz <= h
}

// reconcileCheckpoints diffs p's checkpoint view against their checkpoints
// in their scope.
func (w *World) reconcileCheckpoints(p *Player) {
	if p.gone || p.left {
		return
	}
	s := &p.prims
	s.init()
	pr := &w.prims
	pr.passes[primCheckpoints]++
	wants := pr.wants[:0]
	for _, id := range s.own {
		if c := pr.cps[id]; c.params.Scope == p.scope {
			wants = append(wants, stream.Want{ID: id, Rev: c.rev, Dist2: grid.Dist2(p.pos, c.params.Pos)})
		}
	}
	pr.wants = wants
	pr.ops = s.cps.Reconcile(wants, takeRoom(p), stream.HidesFirst, pr.ops[:0])
	pkt := &pr.cp
	for _, op := range pr.ops {
		if op.Show {
			pr.cps[op.ID].fill(pkt)
		} else {
			*pkt = wire.Checkpoint{CheckpointID: op.ID}
		}
		sendOp(w, p, pkt)
	}
}

// fill writes the checkpoint's show into s.
func (c *Checkpoint) fill(s *wire.Checkpoint) {
	next := c.params.Pos
	if c.params.Next != nil {
		next = *c.params.Next
	}
	*s = wire.Checkpoint{CheckpointID: c.id, Active: 1, Kind: c.params.Kind, X: c.params.Pos.X, Y: c.params.Pos.Y, Z: c.params.Pos.Z,
		NextX: next.X, NextY: next.Y, NextZ: next.Z, Radius: c.params.Radius, Color: c.params.Color}
}
