package world

import (
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// Per-player primitives (world.md Label3D, Checkpoint, Blip, GangZone,
// ColshapeShape; docs/decisions/0115-per-player-primitives.md). Each player
// has one [stream.View] per kind with the kind's nearest-N limit (256 labels,
// 16 checkpoints, 100 blips, 1024 gang zones, 256 colshape outlines). A view
// is reconciled
//
//   - when the gamemode creates, changes, shows, hides or deletes a
//     primitive, for every player who may see it: at once for labels,
//     checkpoints and colshape outlines (a few players each), on the next
//     tick for blips and gang zones (which concern everyone in their scope:
//     a bulk change costs one reconcile per player, not one per change); a
//     change that leaves a label, blip or zone where it was reaches only
//     the players who show it (docs/decisions/0197-in-place-changes.md);
//   - on the player's slow pass, once every SlowPass at the player's phase
//     of the second (spread by id, so no tick runs everyone's): labels and
//     blips (which follow moving players), checkpoints and colshapes
//     always, gang zones when the player moved more than ZoneRequery since
//     their last pass or a zone changed;
//   - on every tick while a pass left work for lack of send-queue room.
//
// A pass of a player who moved patches the blip and gang zone views by the
// change of the grid's answer (a step: prims_step.go, blip_step.go; a blip
// step is told from the player's ring of the blip grid when one serves it,
// blip_ring.go); one who stands finds them steady from the box caches, or
// from how far the last zone answer holds (zone_hold.go), without a list
// (docs/decisions/0235-prim-steps-and-holds.md,
// docs/decisions/0270-blip-rings.md).
//
// Every show and hide is critical (nothing resends state), and a pass leaves
// SendReserve slots of the send queue free, like pickup streaming. A new
// connection is a new Player with empty views: its first tick shows it
// everything it should see again.
const (
	// SlowPass is how often a player's labels and blips are reconciled
	// without a change: world.md's "once a second".
	SlowPass = time.Second
	// ZoneRequery is how far, meters, a player moves before the 1024
	// nearest gang zones are computed again on a slow pass.
	ZoneRequery = 64
	// primCell is the cell side of the label, blip and colshape grids.
	primCell = 128
	// zoneCell is the cell side of the gang zone grid: zones have no
	// distance limit, so the 1024 nearest of thousands span a large part of
	// the map, and bigger cells are fewer to walk (measured: 5,000 zones,
	// 1000 players, 28–32 ms per pass at 512 m against 50–67 ms at 128 m;
	// docs/benchmarks/world2.md).
	zoneCell = 512
)

// primKind names a kind of per-player primitive, for the pass counters.
type primKind uint8

const (
	primLabels primKind = iota
	primCheckpoints
	primBlips
	primZones
	primColshapes
	primKinds
)

// prims is the world's part of the per-player primitives.
type prims struct {
	next    uint32 // the last label, blip, gang zone or checkpoint id given (one counter)
	nextCol uint32 // the last colshape id given

	labels    map[uint32]*Label      // every label, by id
	labelFind labelFind              // every label by the low bits of its id, for the sends (label_find.go)
	labelG    *grid.Scopes           // unattached labels without a viewer, radius = draw distance
	labelOwnG *grid.Scopes           // unattached labels with a viewer, the same
	attLabel  map[uint32]*Label      // labels attached to an entity
	labelsOn  map[attachKey][]*Label // the same, by the entity they are on, but for players:
	onShown   []*Label               // scratch of labelWants
	blips     map[uint32]*Blip       // every blip, by id
	blipG     *grid.Scopes           // unattached blips, radius = draw distance (+Inf for none; the band past it: farBlips); key = slot in blipHot
	blipEdgeG *grid.Scopes           // unattached blips with a draw distance, radius = it + blipEdgeReach; key = id (blip_hold.go, blip_ring.go)
	attBlip   map[uint32]*Blip       // blips attached to an entity
	attList   []*Blip                // the same, listed (Blip.ai): walked per viewer, faster than the map
	blipAt    time.Time              // the last attached-blip update
	follow    bool                   // a slow pass's blip reconcile: attached blips follow their entity
	zones     map[uint32]*GangZone   // every gang zone, by id
	zoneG     *grid.Scopes           // zones shown to everyone, at their center (z = 0), radius +Inf; cells of zoneCell; key = slot in zoneHot
	zoneHot   slots[uint32]          // the ids of the zones in zoneG, by their key (their rev is the grid's)
	blipHot   slots[uint32]          // the ids of the blips in blipG, by their key (their rev is the grid's)
	blipSlots []blipSlot             // where the blips in blipG stand and their draw distance, by their key (blip_ring.go)
	cps       map[uint32]*Checkpoint // every checkpoint, by id (each also listed by its owner)
	cols      map[uint32]*Colshape   // every colshape, by id
	colG      *grid.Scopes           // colshapes at their center, radius = the form's bounding radius
	pkRows    pickupRows             // what the pickups' shows read, dense by id (pickup_rows.go)

	passes       [primKinds]uint64 // reconciles run, by primKind (benchmarks and the spreading tests)
	holdsMade    uint64            // zone holds computed (zone_hold.go)
	holds        uint64            // zone views found steady by a hold
	blipHolds    uint64            // blip views found steady by a hold
	steps        uint64            // views patched by a step (prims_step.go)
	markSteps    uint64            // blip steps with an attached blip shown or wanted (blip_step.go)
	ringBuilds   uint64            // blip rings built (blip_ring.go)
	ringSteps    uint64            // blip steps told from a ring
	ringSame     uint64            // ring steps whose answer did not change (no entry, no leave)
	pickupSame   uint64            // pickup steps that sent nothing (pickup_step.go)
	pickupOps    uint64            // shows and hides sent by pickup steps
	vehicleSteps uint64            // vehicle views patched by a step (vehicle_steady.go)
	vtick        vehicleTick       // the vehicles' per-tick passes (vehicle_tick.go)
	labelSteps   uint64            // label views patched by a step (label_step.go)
	labelShells  uint64            // of which told from the view's shell

	// Scratch, owned by the world goroutine.
	hits     []grid.Hit
	colHits  []grid.Hit    // checkColshapes only
	holdHits []grid.Hit    // holdZones only
	step     grid.Step     // a view's step (prims_step.go)
	hide     []uint32      // a step's hides (ids)
	show     []stream.Want // and shows
	hide2    []uint32      // scratch of stepBlips
	show2    []stream.Want
	extras   []stream.Want // stepBlips: the extras wanted now
	x0       []stream.Want // and those shown
	sorted   []grid.Hit    // keepBlips
	ringHits []grid.Hit    // blip_ring.go
	ringWas  []bool
	wants    []stream.Want
	ops      []stream.Op
	label    wire.Label3D // encode scratch, one per kind
	blip     wire.Blip
	zone     wire.GangZone
	cp       wire.Checkpoint
	col      wire.ColshapeShape
}

func newPrims() prims {
	return prims{
		labels: map[uint32]*Label{}, labelG: grid.NewScopes(primCell), labelOwnG: grid.NewScopes(primCell), attLabel: map[uint32]*Label{}, labelsOn: map[attachKey][]*Label{},
		blips: map[uint32]*Blip{}, blipG: grid.NewScopes(primCell), blipEdgeG: grid.NewScopes(primCell), attBlip: map[uint32]*Blip{},
		zones: map[uint32]*GangZone{}, zoneG: grid.NewScopes(zoneCell),
		cps:  map[uint32]*Checkpoint{},
		cols: map[uint32]*Colshape{}, colG: grid.NewScopes(primCell),
	}
}

// nextID returns the next label, blip, gang zone or checkpoint id:
// monotonic, never reused, one counter for the four kinds.
func (pr *prims) nextID() uint32 {
	pr.next++
	return pr.next
}

// primState is a player's part of the per-player primitives.
type primState struct {
	labels, cps, blips, zones, cols *stream.View

	due        time.Time     // the next slow pass
	zoneAnchor stream.Anchor // where the gang zones were last computed
	zoneHold   answerHold    // how far the last answer of the zone grid holds (zone_hold.go)
	blipHold   answerHold    // and of the blip grid (blip_hold.go)
	blipsDirty bool          // a blip this player may see changed: reconcile on the next tick
	recheck    bool          // a view ran a reconcile (takeRoom) since all were last found with no ops left
	zonesDirty bool          // a gang zone this player may see changed: reconcile on the next tick

	farBlips []farBlip // every unattached blip with a draw distance shown to this player (blipWants: the hysteresis band; blip_far.go)
	attShown []*Blip   // every attached blip shown to this player (blip_far.go)
	blipStep primStep  // the blip grid's last answer, for a step
	blipRing blipRing  // the blip grid around the player, for a step (blip_ring.go)
	zoneStep primStep  // the zone grid's last answer, for a step

	zoneSet map[uint32]bool     // gang zones shown (true) or hidden (false) for this player
	colShow map[uint32]struct{} // colshapes shown to this player
	colIn   map[uint32]struct{} // colshapes the player is inside (colshape_enter raised)
	own     []uint32            // the player's checkpoints

	syncPos grid.Vec // the last accepted PlayerSync position
	hasSync bool     // syncPos is in the player's scope
	frozen  bool     // a same-scope landing is unconfirmed: crossings wait for the next sync
	cross   crossings
}

func (s *primState) init() {
	if s.labels != nil {
		return
	}
	s.labels = stream.New(stream.Labels.Limit())
	s.cps = stream.New(stream.Checkpoints.Limit())
	s.blips = stream.New(stream.Blips.Limit())
	s.zones = stream.New(stream.GangZones.Limit())
	s.cols = stream.New(stream.Colshapes.Limit())
	s.zoneSet = map[uint32]bool{}
	s.colShow = map[uint32]struct{}{}
	s.colIn = map[uint32]struct{}{}
}

// takeRoom returns how many ops a reconcile of p may queue, and marks p's
// primitive views to be polled for ops left (recheck). Every reconcile,
// patch and flush of a primitive view takes its room from here, the only
// calls that can leave ops pending: so p's views are polled for pending
// work (tickPrims) only after one of them ran.
func takeRoom(p *Player) int {
	p.prims.recheck = true
	return p.conn.Free() - SendReserve
}

// tickPrims runs p's deferred checkpoint crossings and, when due, its slow
// pass; views with pending work are reconciled on every tick.
func (w *World) tickPrims(p *Player, now time.Time) {
	s := &p.prims
	s.init()
	w.flushCrossings(p, now)
	slow := !now.Before(s.due)
	if slow {
		s.due = w.nextSlowPass(p, now)
	}
	// Views are polled for ops left only if a reconcile ran since they were
	// last found without (takeRoom): five views a player, a tick, were a
	// cache miss each for nothing (docs/decisions/0270-blip-rings.md).
	poll := s.recheck
	s.recheck = false
	if slow {
		w.reconcileLabels(p)
	} else if poll && s.labels.Pending() > 0 {
		w.flushLabels(p) // label.go: the ops left, without a new wanted set
	}
	if slow || poll && s.blips.Pending() > 0 || s.blipsDirty {
		s.blipsDirty = false
		w.prims.follow = slow // attached blips follow their entity (attachedBlipWants)
		w.reconcileBlips(p)
		w.prims.follow = false
	}
	if slow || poll && s.cps.Pending() > 0 {
		w.reconcileCheckpoints(p)
	}
	if slow && s.zoneAnchor.Due(p.pos, ZoneRequery) || poll && s.zones.Pending() > 0 || s.zonesDirty {
		s.zonesDirty = false
		w.reconcileZones(p)
	}
	if slow || poll && s.cols.Pending() > 0 {
		w.reconcileColshapes(p)
	}
	if poll && !s.recheck && s.pending() {
		s.recheck = true // ops left and nothing ran this tick: poll again on the next
	}
}

// pending reports whether any of the views has ops left.
func (s *primState) pending() bool {
	return s.labels.Pending()+s.blips.Pending()+s.cps.Pending()+s.zones.Pending()+s.cols.Pending() > 0
}

// nextSlowPass returns when p's next slow pass is due after now: at p's
// phase of the second, id/max_players of a SlowPass after the world's
// start, so that the players' slow passes spread evenly over the ticks of a
// second (1000 players at 20 Hz: 50 per tick), whatever tick they joined or
// landed in (docs/decisions/0195-flat-ticks.md).
func (w *World) nextSlowPass(p *Player, now time.Time) time.Time {
	phase := w.start.Add(SlowPass * time.Duration(p.id) / time.Duration(w.maxPlayers))
	since := now.Sub(phase)
	if since < 0 {
		return phase
	}
	return phase.Add((since/SlowPass + 1) * SlowPass)
}

// tickPrimsWorld runs the world's part of the primitives' timers: attached
// blips follow their entity once a second (Blip.Position for the gamemode;
// each viewer's slow pass also follows those it may see: attachedBlipWants).
func (w *World) tickPrimsWorld(now time.Time) {
	if now.Sub(w.prims.blipAt) >= SlowPass {
		w.prims.blipAt = now
		w.followBlips()
	}
}

// primsSynced runs after an accepted PlayerSync: checkpoint and colshape
// entry and exit from the new position (or the death it reported).
func (w *World) primsSynced(p *Player) {
	s := &p.prims
	s.init()
	s.syncPos, s.hasSync, s.frozen = p.pos, true, false
	w.checkCheckpoints(p)
	w.checkColshapes(p)
}

// primsLanding runs before a landing (spawn, respawn, teleport) to scope sc
// is applied. A change of scope is an exit from every checkpoint and
// colshape; within the scope, crossings wait for the sync that confirms the
// landing. Either way the views are reconciled on the next tick.
func (w *World) primsLanding(p *Player, sc grid.Scope) {
	s := &p.prims
	s.init()
	s.due = time.Time{}
	s.zoneAnchor.Invalidate()
	if sc != p.scope {
		s.hasSync, s.frozen = false, false
		w.checkCheckpoints(p)
		w.leaveColshapes(p)
		return
	}
	s.frozen = true
}

// leavePrims deletes what goes with a player who left: labels attached to
// them or shown only to them, blips attached to them and their checkpoints,
// without events. Their gang zone and colshape show sets go with the Player.
func (w *World) leavePrims(p *Player) {
	for _, l := range w.prims.attLabel {
		if l.params.AttachKind == wire.AttachPlayer && l.params.AttachID == uint32(p.id) {
			w.DeleteLabel(l.id)
		}
	}
	for _, l := range w.prims.labels {
		if l.params.Viewer == p {
			w.DeleteLabel(l.id)
		}
	}
	for _, b := range w.prims.attBlip {
		if b.params.AttachKind == wire.AttachPlayer && b.params.AttachID == uint32(p.id) {
			w.DeleteBlip(b.id)
		}
	}
	for _, id := range p.prims.own {
		delete(w.prims.cps, id)
	}
	p.prims.own = nil
}

// sendOp queues one show or hide of a reconcile of p: critical, since
// nothing would resend it.
func sendOp(w *World, p *Player, pkt wire.Packet) { w.send(p, pkt, lane.Critical) }
