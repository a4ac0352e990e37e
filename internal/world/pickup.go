package world

import (
	"fmt"
	"math"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// Pickup streaming (world.md PickupSync): a pickup is shown to a player while
// it is active, in the player's scope and within world.pickup_draw_distance
// of the player's stream center (the last accepted position, or the last
// landing point); it is removed when it leaves that distance, turns inactive
// (collected, waiting for its respawn) or is deleted. Every show and hide is
// critical. A move bumps the pickup's rev, and the reconcile sends a show
// with the new rev to every player it is streamed to.
//
// Each player has a [stream.View] of pickups. The wanted set is computed
// again when the player moved more than PickupRequery meters since the last
// query ([stream.Anchor]), when a pickup near them changed, and while a pass
// left work for lack of queue room. A reconcile leaves SendReserve slots of
// the send queue free; what does not fit goes on the next tick.
const (
	// PickupRequery is how far, meters, a player moves before their wanted
	// set is computed again: a pickup may appear up to this much late and
	// stay up to this much past the draw distance.
	PickupRequery = 4
	// SendReserve is how many send-queue slots streaming leaves free for
	// other critical packets (spawns, grants, the clock).
	SendReserve = 32
	// pickupCell is the grid's cell side, meters.
	pickupCell = 64
)

// Pickup is one server pickup. Read it with [World.Pickup].
type Pickup struct {
	id        uint32
	model     uint32
	pos       grid.Vec
	scale     float32
	highlight uint8
	scope     grid.Scope
	behavior  Behavior
	respawn   time.Duration
	active    bool
	rev       uint32
	h         grid.Handle
}

// ID returns the pickup id.
func (pk *Pickup) ID() uint32 { return pk.id }

// Model returns the object model.
func (pk *Pickup) Model() uint32 { return pk.model }

// Position returns the pickup's position.
func (pk *Pickup) Position() grid.Vec { return pk.pos }

// Active reports whether the pickup is shown (false while it waits for its
// respawn).
func (pk *Pickup) Active() bool { return pk.active }

// Rev returns the pose revision, bumped by every move.
func (pk *Pickup) Rev() uint32 { return pk.rev }

// PickupParams is what create_pickup takes.
type PickupParams struct {
	Model       uint32     // an object model of the model table (weapon models 321..373 included)
	Pos         grid.Vec   // |x|, |y| ≤ 4095, z −200..4000
	Scale       float32    // 0.1..10; 0 means 1
	NoHighlight bool       // turns the glow off
	Scope       grid.Scope // virtual world and interior
	Behavior    Behavior   // touch policy; 0 means Collectible
	// Respawn is how long a collected pickup stays inactive before it is
	// shown again; 0 deletes it when collected.
	Respawn time.Duration
}

type respawn struct {
	id uint32
	at time.Time
}

// CreatePickup creates a pickup and returns its id (monotonic, never
// reused). The model, position and scale are checked with PickupSync's send
// rules; the error names the argument.
func (w *World) CreatePickup(pp PickupParams) (uint32, error) {
	if pp.Scale == 0 {
		pp.Scale = 1
	}
	if pp.Behavior == 0 {
		pp.Behavior = Collectible
	}
	if pp.Behavior != Collectible && pp.Behavior != Static {
		return 0, &ArgError{Func: "create_pickup", Arg: "behavior", Rule: fmt.Sprintf("must be collectible or static, got %d", pp.Behavior)}
	}
	if pp.Respawn < 0 {
		return 0, &ArgError{Func: "create_pickup", Arg: "respawn", Rule: fmt.Sprintf("must not be negative, got %v", pp.Respawn)}
	}
	pk := &Pickup{model: pp.Model, pos: pp.Pos, scale: pp.Scale, highlight: 1, scope: pp.Scope,
		behavior: pp.Behavior, respawn: pp.Respawn, active: true, rev: 1}
	if pp.NoHighlight {
		pk.highlight = 0
	}
	if err := pk.show().CheckSend(); err != nil {
		return 0, fieldArgErr("create_pickup", err)
	}
	if w.nextPickup == math.MaxUint32 {
		// Ids are never given again (a client's late touch must not reach a
		// new pickup): after 2³²−1 of them there is none left.
		return 0, &ArgError{Func: "create_pickup", Arg: "id", Rule: fmt.Sprintf("every pickup id was given (%d pickups created); ids are not reused", uint64(math.MaxUint32))}
	}
	w.nextPickup++
	pk.id = w.nextPickup
	w.pickups[pk.id] = pk
	w.prims.pkRows.set(pk)
	w.gridPickup(pk)
	w.pickupChanged(pk, pk.pos)
	return pk.id, nil
}

// Pickup returns the pickup with the id, or nil.
func (w *World) Pickup(id uint32) *Pickup { return w.pickups[id] }

// MovePickup moves a pickup (Pickup:set_position): the position is checked
// like on creation, the rev grows, and every player it is streamed to gets
// a show with the new rev (critical), or a remove if it left their view.
func (w *World) MovePickup(id uint32, pos grid.Vec) error {
	pk := w.pickups[id]
	if pk == nil {
		return stateErr("set_position", "pickup", "no pickup %d", id)
	}
	show := pk.show()
	show.X, show.Y, show.Z = pos.X, pos.Y, pos.Z
	if err := show.CheckSend(); err != nil {
		return fieldArgErr("set_position", err)
	}
	old := pk.pos
	pk.pos = pos
	pk.rev++
	w.prims.pkRows.set(pk)
	if pk.active {
		g := w.pickupGrid.Get(pk.scope)
		g.Move(pk.h, pos)
		g.SetRev(pk.h, pk.rev)
	}
	w.pickupChanged(pk, old)
	return nil
}

// DeletePickup deletes a pickup: every player it is streamed to gets a
// remove (critical).
func (w *World) DeletePickup(id uint32) error {
	pk := w.pickups[id]
	if pk == nil {
		return stateErr("delete_pickup", "pickup", "no pickup %d", id)
	}
	w.deactivate(pk)
	delete(w.pickups, id)
	w.prims.pkRows.drop(id)
	w.pickupChanged(pk, pk.pos)
	return nil
}

// CollectPickup consumes an active pickup (collect_pickup): it is removed
// from every view (critical) and, with a respawn configured, shown again
// after it; without one it is deleted.
func (w *World) CollectPickup(id uint32) error {
	pk := w.pickups[id]
	if pk == nil || !pk.active {
		return stateErr("collect_pickup", "pickup", "no active pickup %d", id)
	}
	if pk.respawn == 0 {
		return w.DeletePickup(id)
	}
	w.deactivate(pk)
	w.respawns = append(w.respawns, respawn{id: id, at: w.now.Add(pk.respawn)})
	w.pickupChanged(pk, pk.pos)
	return nil
}

// gridPickup puts an active pickup in its scope's grid, with its rev (the
// box caches' fingerprints read it).
func (w *World) gridPickup(pk *Pickup) {
	g := w.pickupGrid.Get(pk.scope)
	pk.h = g.Insert(pk.id, pk.pos, w.pickupDist)
	g.SetRev(pk.h, pk.rev)
}

func (w *World) deactivate(pk *Pickup) {
	if !pk.active {
		return
	}
	pk.active = false
	g := w.pickupGrid.Get(pk.scope)
	g.Remove(pk.h)
	if g.Len() == 0 {
		w.pickupGrid.Prune(pk.scope)
	}
}

// tickRespawns shows again the collected pickups whose respawn is due.
func (w *World) tickRespawns(now time.Time) {
	kept := w.respawns[:0]
	for _, r := range w.respawns {
		pk := w.pickups[r.id]
		switch {
		case pk == nil || pk.active:
			// deleted while waiting
		case now.Before(r.at):
			kept = append(kept, r)
		default:
			pk.active = true
			w.gridPickup(pk)
			w.pickupChanged(pk, pk.pos)
		}
	}
	w.respawns = kept
}

// pickupChanged reconciles at once every player who may see the pickup at
// its old or new position, or has it shown.
func (w *World) pickupChanged(pk *Pickup, old grid.Vec) {
	r := w.pickupDist + PickupRequery + 1
	for _, p := range w.players {
		if p == nil || p.gone || !p.hasPos {
			continue
		}
		near := p.scope == pk.scope && (grid.Dist2(p.pos, pk.pos) <= r*r || grid.Dist2(p.pos, old) <= r*r)
		if near || p.PickupShown(pk.id) {
			p.pickAnchor.Invalidate()
			p.spots[cachePickups].stepOff()
			w.streamPickups(p)
		}
	}
}

// streamPickups reconciles the player's pickup view when it is due, or
// sends the ops a reconcile left. The view is asked for ops left only when
// the last reconcile left some (Player.pickupsLeft): a thousand views a
// tick, a cache miss each, almost never with any.
func (w *World) streamPickups(p *Player) {
	if !p.hasPos || p.gone {
		return
	}
	if !p.pickAnchor.Due(p.pos, PickupRequery) && !(p.pickupsLeft && p.pickups.Pending() > 0) {
		p.pickupsLeft = false
		return
	}
	w.streamPickupsDue(p)
	p.pickupsLeft = p.pickups.Pending() > 0
}

// streamPickupsDue reconciles the player's pickup view: by a step, or from
// the wanted set.
func (w *World) streamPickupsDue(p *Player) {
	if w.pickupStep(p) {
		p.pickAnchor.Mark(p.pos)
		return
	}
	wants, same := w.pickupWants(p, w.wants[:0], p.pickups)
	p.pickAnchor.Mark(p.pos)
	w.pickupStepFrom(p)
	if same {
		return
	}
	w.ops = p.pickups.Reconcile(wants, p.conn.Free()-SendReserve, stream.HidesFirst, w.ops[:0])
	w.wants = wants
	w.sendPickupOps(p, w.ops)
}

// pickupWants appends the pickups wanted by p: active, in p's scope, within
// the draw distance of p's stream center. With v, p's view, a wanted set
// equal to the shown one is recognized from the box cache's answer without
// a list: then v did what its Reconcile would and same is true.
func (w *World) pickupWants(p *Player, wants []stream.Want, v *stream.View) (_ []stream.Want, same bool) {
	if w.bruteForce {
		r2 := w.pickupDist * w.pickupDist
		for _, pk := range w.pickups {
			if d := grid.Dist2(p.pos, pk.pos); pk.active && pk.scope == p.scope && d <= r2 {
				wants = append(wants, stream.Want{ID: pk.id, Rev: pk.rev, Dist2: d})
			}
		}
		return wants, false
	}
	pc := w.caches.kinds[cachePickups]
	if g, c := pc.get(p.scope); c != nil {
		box, hits := pc.query(g, c, &p.spots[cachePickups], p.scope, p.pos, w.hits[:0])
		if v != nil && v.UnchangedAnswer(box, hits) {
			w.hits = hits
			w.caches.steady[cachePickups]++
			return wants, true
		}
		w.hits = box.AppendSure(p.pos, hits)
		for _, h := range w.hits {
			wants = append(wants, stream.Want{ID: h.Key, Rev: h.Rev, Dist2: h.Dist2})
		}
	}
	return wants, false
}

// show returns the pickup's show packet.
func (pk *Pickup) show() *wire.PickupSync {
	s := new(wire.PickupSync)
	pk.fill(s)
	return s
}

// fill writes the pickup's show into s.
func (pk *Pickup) fill(s *wire.PickupSync) {
	*s = wire.PickupSync{PickupID: pk.id, Active: 1, Model: pk.model, X: pk.pos.X, Y: pk.pos.Y, Z: pk.pos.Z,
		Scale: pk.scale, Highlight: pk.highlight, Rev: pk.rev}
}
