package world

import (
	"fmt"
	"math"
	"math/bits"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// Players streamed to each other (docs/protocol.md, Streaming players and
// vehicles; ADR 0126). Player B is shown to player A (PlayerShow, critical)
// while both have a stream center (spawned at least once), B is not A, both
// are in the same scope, B is within PlayerStreamDistance of A's stream
// center, and B is among the PlayerLimit nearest such players, with a
// hold for the players A's view already wants (players_hold.go: they rank
// nearer and stay PlayerHoldMargin farther). B is hidden (PlayerShow
// active = 0) when that stops: distance, a change of scope, B leaving. A
// change of what the show carries (skin, name, color) is a new show with a
// new rev. While B is shown, A receives B's last accepted
// PlayerSync as PlayerMove (unreliable, seq = the server tick) once per
// tick when it changed, and once right after the show (the client draws the
// player only from its first PlayerMove).
//
// Each player has a [stream.View] of players, and another of vehicles and of
// objects. A view is computed again when its owner moved more than
// EntityRequery meters since the last query, when an entity near it moved
// more than EntityRequery meters since it last announced itself, when an
// entity it has shown changed, and while a pass left work pending. A player
// who announces itself makes another player's view of players compute again
// only when its own place in that view may have changed (see
// [World.announceMover]): in a crowd where nobody crosses anyone's stream
// distance, the views are not computed again for every step of every player.
const (
	// PlayerStreamDistance is how far, meters, a player is shown to
	// another: the game's own stream distance for peds (300 m).
	PlayerStreamDistance = 300
	// PlayerLimit is how many other players one player is shown at most:
	// the nearest.
	PlayerLimit = 200
	// EntityRequery is how far, meters, a viewer or a moving entity goes
	// before the views around it are computed again (see [stream.Anchor]).
	EntityRequery = 4
	// playerCell is the cell side, meters, of the player and vehicle grids.
	playerCell = 64
	// entityReach is the radius the player and vehicle grids store: the
	// stream distance, a held player's margin and the requery slack on both
	// sides, so that a covering query around a moving entity finds every
	// viewer who may have it shown.
	entityReach = PlayerStreamDistance + PlayerHoldMargin + 2*EntityRequery + 1
)

// Kind is the kind of an entity another primitive attaches to, with the
// values of the wire's attach_kind.
type Kind uint8

const (
	KindPlayer  Kind = wire.AttachPlayer
	KindVehicle Kind = wire.AttachVehicle
	KindObject  Kind = wire.AttachObject
)

func (k Kind) String() string {
	switch k {
	case KindPlayer:
		return "player"
	case KindVehicle:
		return "vehicle"
	case KindObject:
		return "object"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// playerEnt is a player's part in streaming: as an entity shown to others,
// and as the viewer of other players, vehicles and objects.
type playerEnt struct {
	// As an entity.
	name  wire.PlayerName
	color uint32
	rev   uint32 // rev of this player's show; a new one on every change of skin, name or color
	skin  uint16 // the skin the rev was given for

	h      grid.Handle
	ch     grid.Handle // in the cut grid of gscope (players_cuts.go)
	cutAt  grid.Vec    // where it stands in the cut grid
	inGrid bool
	gscope grid.Scope // the scope of the grid h is in

	// Where the views around this player were last told to compute again.
	announceAt    grid.Vec
	announceScope grid.Scope
	announced     bool

	last      wire.PlayerSync
	moved     bool      // an accepted sync since the last tick's moves
	lastMoved uint32    // the tick of the last move
	attached  []*Object // chain roots attached to this player
	owned     []*Object // objects this player is the viewer of
	vehicle   *Vehicle  // the vehicle this player drives, nil when none

	// As a viewer.
	players     *stream.View
	playerAt    stream.Anchor
	deferred    bool       // due, past the tick's budget: in ents.views.deferred
	playersLeft bool       // the last pass of players left ops for lack of room
	lastHits    uint16     // the hits of the last pass's query of players (players_query.go); in the bools' padding
	deferredAt  uint32     // the tick it was deferred in; in the padding too
	shownP      []uint16   // the players shown, in no order (mirror of players)
	shownBits   idSet      // the same, as a set
	wantBits    idSet      // the players wanted as of the last pass: shown or left to show (held)
	wantP       []uint16   // the same, listed
	freshP      []uint16   // shown in this tick's pass: owed a first PlayerMove
	nearP       []uint16   // the players shown within NearMoveDistance, as of the last split
	nearD       []float32  // splitMoves' scratch: the squared distances of those within NearMoveDistance
	nearSel     []float32  // splitMoves' scratch: nearD's copy that nearCut reorders
	nearCut2    float32    // the squared distance of the NearMoveLimit-th nearest at the last periodic split; 0: not a crowd
	farP        [][]uint16 // the others, by id % rates.far: rates.far lists (World.Join)
	vehiclesV   *stream.View
	vehicleAt   stream.Anchor
	shownV      []uint16 // the vehicles shown, in no order (mirror of vehiclesV)
	objects     *stream.View
	objectAt    stream.Anchor
	hold        *landingHold // a spawn or respawn waiting for the objects at its point
	labels      labelPass    // the labels on players its label view's last pass wanted (label_pass.go)
}

func (e *playerEnt) init(id uint16) {
	e.name = defaultName(id)
	e.color = 0xFFFFFF
	e.players = stream.New(PlayerLimit)
	e.vehiclesV = stream.New(VehicleLimit)
	e.objects = stream.New(stream.Objects.Limit())
}

// StreamedTo reports whether the entity (a player id, a vehicle id or an
// object id) is currently shown to the player: the world sent its show and
// no hide since. A player is never streamed to themselves (their client
// holds their own position). Labels, blips and network vars attached to an
// entity use it.
func (w *World) StreamedTo(kind Kind, id uint32, to *Player) bool {
	if to == nil {
		return false
	}
	var ok bool
	switch kind {
	case KindPlayer: // shownBits mirrors the view's shown set (streamPlayersNow): a bit, not a table find
		ok = id <= math.MaxUint16 && to.ent.shownBits.has(uint16(id))
	case KindVehicle:
		_, ok = to.ent.vehiclesV.Shown(id)
	case KindObject:
		_, ok = to.ent.objects.Shown(id)
	}
	return ok
}

// playerChanged gives p's show a new rev and makes every player who has p
// shown compute their view again.
func (w *World) playerChanged(p *Player) {
	w.ents.playerRev++
	p.ent.rev = w.ents.playerRev
	p.ent.skin = p.skin
	w.ref(p.id).rev = p.ent.rev
	for _, q := range w.players {
		if q != nil && q != p {
			if _, ok := q.ent.players.Shown(uint32(p.id)); ok || q.ent.wants(p.id) {
				q.ent.playerAt.Invalidate() // a show left to send would carry the old rev
			}
		}
	}
}

// playerLanded runs after a landing moved p's scope and stream center: p
// enters the player grid (or moves in it), what is attached to p follows,
// and the views around the old and the new point are computed again.
func (w *World) playerLanded(p *Player) {
	e := &p.ent
	oldScope := e.gscope
	if e.inGrid { // the viewers around the point it leaves
		w.announce(e.gscope, w.ents.playerGrid.Get(e.gscope).Position(e.h), len(e.attached) > 0)
	}
	w.placePlayer(p)
	e.playerAt.Invalidate()
	e.vehicleAt.Invalidate()
	e.objectAt.Invalidate()
	w.announcePlayer(p)
	w.attachedFollow(e.attached, p.scope, p.pos, oldScope.Interior != p.scope.Interior)
}

// placePlayer puts p in the player grid of its scope at its position.
func (w *World) placePlayer(p *Player) {
	e := &p.ent
	if e.rev == 0 {
		w.ents.playerRev++
		e.rev, e.skin = w.ents.playerRev, p.skin
	}
	if e.inGrid && e.gscope != p.scope {
		w.removePlayerGrid(p)
	}
	r := w.ref(p.id)
	*r = playerRef{pos: p.pos, cut: r.cut, rev: e.rev, label: r.label, scope: p.scope, inGrid: true}
	if !e.inGrid {
		e.h = w.ents.playerGrid.Get(p.scope).Insert(uint32(p.id), p.pos, entityReach)
		e.inGrid, e.gscope = true, p.scope
		w.ents.views.streamed++
		w.placeCut(p, true)
		return
	}
	w.ents.playerGrid.Get(p.scope).Move(e.h, p.pos)
	w.placeCut(p, false)
}

func (w *World) removePlayerGrid(p *Player) {
	e := &p.ent
	if !e.inGrid {
		return
	}
	g := w.ents.playerGrid.Get(e.gscope)
	g.Remove(e.h)
	if g.Len() == 0 {
		w.ents.playerGrid.Prune(e.gscope)
	}
	w.removeCut(p)
	e.inGrid = false
	w.ents.views.streamed--
	w.ref(p.id).inGrid = false
}

// announcePlayer makes the views around p compute again, and marks where p
// was when it did. Every viewer who has p shown holds it (heldBy); every
// viewer who may want it now is within PlayerStreamDistance of p, inside
// entityReach. A viewer whose objects may ride on p is within reach of p's
// last announce or of p: a viewer computes its view again within
// EntityRequery meters and p announces itself every EntityRequery meters,
// so a viewer of p's objects is within PlayerStreamDistance +
// PlayerHoldMargin + 2 × EntityRequery of one of the two. Their object
// views compute again when objects ride on p; their view of players only
// when p's place in it may have changed (see [World.announceMover]); their
// view of vehicles does not depend on p.
func (w *World) announcePlayer(p *Player) {
	e := &p.ent
	if len(e.attached) > 0 {
		if e.announced && e.announceScope == p.scope && e.announceAt != p.pos {
			// Around the last announce too: a jump (a fast vehicle, a slow
			// sync) leaves viewers who have p's objects shown beyond reach
			// of the new point.
			w.announceObjects(p.scope, e.announceAt)
		}
		w.announceObjects(p.scope, p.pos)
	}
	w.announceMover(p)
	e.announceAt, e.announceScope, e.announced = p.pos, p.scope, true
}

// announceObjects invalidates the object views of every player whose
// stream center is within entityReach of pos in the scope.
func (w *World) announceObjects(sc grid.Scope, pos grid.Vec) {
	if g := w.ents.playerGrid.Lookup(sc); g != nil {
		w.ents.hits = g.Covering(pos, w.ents.hits[:0])
		for _, h := range w.ents.hits {
			w.players[h.Key].ent.objectAt.Invalidate()
		}
	}
}

// announceMover makes p's own view of vehicles compute again, and a
// viewer's view of players only when p's place in it disagrees with where
// p now is, by the rank of the view's hold rule (ranksIn, players_hold.go):
// p held but no longer eligible or ranked past the viewer's cut (between
// the rank of the last wanted and of the first other when the view is
// full), or p not held but eligible and ranked within it. Every other
// player keeps its rank until it announces itself or the viewer moves, so
// the view's last pass still holds. The viewers who hold p are read from
// p's heldBy row, wherever they are; the others from the cut grid around p
// (players_cuts.go: those whose cut p may rank within), by the dense table
// (players_index.go), without their structs.
func (w *World) announceMover(p *Player) {
	e := &p.ent
	refs := w.ents.views.refs
	held := w.heldBy(p.id)
	for i, word := range held {
		for word != 0 {
			id := uint16(i<<6 + bits.TrailingZeros64(word))
			word &= word - 1
			q := &refs[id]
			if q.scope != p.scope || !ranksIn(grid.Dist2(q.pos, p.pos), true, q.cut) {
				w.players[id].ent.playerAt.Invalidate()
			}
		}
	}
	if !e.inGrid || e.gscope != p.scope {
		return
	}
	// Its own view of players computes again by its own requery distance.
	e.vehicleAt.Invalidate()
	// The viewers whose cut p may rank within (players_cuts.go).
	w.ents.hits = w.ents.views.cuts.Get(p.scope).Covering(p.pos, w.ents.hits[:0])
	for _, h := range w.ents.hits {
		id := uint16(h.Key)
		if id == p.id {
			continue
		}
		if q := &refs[id]; !held.has(id) && ranksIn(grid.Dist2(q.pos, p.pos), false, q.cut) {
			w.players[id].ent.playerAt.Invalidate()
		}
	}
}

// announceDue reports whether the player moved its requery distance
// (requeryOf) since its last announce.
func (e *playerEnt) announceDue(pos grid.Vec, requery float32) bool {
	return !e.announced || grid.Dist2(e.announceAt, pos) > requery*requery
}

// requeryPhases is how many requery distances the players are spread over.
const requeryPhases = 16

// requeryOf is how far, meters, player id goes before it announces itself
// and before its view of players is computed again: EntityRequery less up
// to a quarter of it, by id. Players who run in step (a crowd that spawned
// together) would otherwise all announce and query on the same tick, one
// tick in 14 at running speed costing ten times the others; with distances
// of their own they do it on different ticks, and drift further apart with
// every requery. A shorter distance only computes sooner: every rule that
// counts on EntityRequery (entityReach, a shown player within
// PlayerStreamDistance + 2 × EntityRequery) still holds.
func requeryOf(id uint16) float32 {
	return EntityRequery * (1 - float32(id%requeryPhases)/(4*requeryPhases))
}

// announce invalidates the player and vehicle views (and the object views
// when objects ride along) of every player whose stream center is within
// entityReach of pos in the scope.
func (w *World) announce(sc grid.Scope, pos grid.Vec, objects bool) {
	g := w.ents.playerGrid.Lookup(sc)
	if g == nil {
		return
	}
	w.ents.hits = g.Covering(pos, w.ents.hits[:0])
	for _, h := range w.ents.hits {
		q := w.players[h.Key]
		q.ent.playerAt.Invalidate()
		q.ent.vehicleAt.Invalidate()
		if objects {
			q.ent.objectAt.Invalidate()
		}
	}
}

// syncAccepted records an accepted PlayerSync: the player moves in the
// grid, owes a PlayerMove, drives its vehicle, and carries what is attached.
func (w *World) syncAccepted(p *Player, s *wire.PlayerSync) {
	e := &p.ent
	e.last = *s
	e.moved = true
	if !e.inGrid || e.gscope != p.scope {
		w.placePlayer(p)
	} else {
		w.ents.playerGrid.Get(p.scope).Move(e.h, p.pos)
		w.syncCut(p)
		w.ents.views.refs[p.id].pos = p.pos
	}
	if e.announceDue(p.pos, requeryOf(p.id)) {
		w.announcePlayer(p)
	}
	w.driverSync(p, s)
	w.attachedFollow(e.attached, p.scope, p.pos, false)
}

// playerLeft forgets p as an entity: out of the grid, hidden from everyone
// at once, its attached chains and its per-player objects deleted, its
// vehicle without a driver.
func (w *World) playerLeft(p *Player) {
	w.deleteChains(p.ent.attached)
	p.ent.attached = nil
	w.deleteViewerObjects(p)
	if v := p.ent.vehicle; v != nil {
		v.driver = nil
		v.idleSince = w.now
	}
	w.removePlayerGrid(p)
	hide, show, _ := w.playerChange(p, nil) // its view holds no one
	w.setWants(p, nil, hide, show)
	p.ent.hold = nil
	for _, q := range w.players {
		if q == nil || q == p {
			continue
		}
		if _, ok := q.ent.players.Shown(uint32(p.id)); ok || q.ent.wants(p.id) {
			q.ent.playerAt.Invalidate() // also drops a show of p left to send
			w.streamPlayers(q, p)
		}
	}
	clear(w.heldBy(p.id)) // the next player with p's id starts with no viewer, as p did
}

// streamPlayers reconciles q's view of players when it is due: its wanted
// set is computed again when q moved or the view was invalidated; a view
// whose last pass left ops for lack of room only sends them (Flush), as
// far as the room allows, without a query: in a crowd whose clients fall
// behind, the views stay pending for many ticks, and a query each would
// slow the tick that lets them catch up. The ops left are exact as long as
// the wanted set is: every change that may alter it (a player crossing
// the view's cut, a show's new rev, a leave) reads the wanted set
// (wantBits), not the shown one, and invalidates the view.
// gone, when not nil, is a player leaving the world: never wanted.
//
// A due view is computed within the tick's budget (see
// [World.beginViews]); past it, it stays due, sends nothing (its ops left
// may be stale) and is computed first on a next tick. A view computed for
// a leave is not budgeted: the leaver is hidden at once.
func (w *World) streamPlayers(q *Player, gone *Player) {
	if gone == nil {
		w.beginViews()
	}
	w.streamPlayersNow(q, gone, false)
}

// streamPlayersNow is streamPlayers; spent tells that the budget already
// counted q's view.
func (w *World) streamPlayersNow(q *Player, gone *Player, spent bool) {
	e := &q.ent
	if !q.hasPos || q.gone || q.left {
		return
	}
	due := e.playerAt.Due(q.pos, requeryOf(q.id))
	if !due && !e.playersLeft { // the view's ops are read only after a pass that left some
		return
	}
	if due && gone == nil && !spent && !w.spendView(q) {
		return
	}
	if due {
		w.ents.ops = w.reconcilePlayers(q)
	} else {
		w.ents.flushes++
		w.ents.ops = e.players.Flush(q.conn.Free()-SendReserve, stream.HidesFirst, w.ents.ops[:0])
	}
	w.readOps(q, w.ents.ops) // players_show.go: the shown players' lines, in a pass of their own
	hid := false             // shownP has hidden players left in it (shownBits cleared)
	for _, op := range w.ents.ops {
		id := uint16(op.ID)
		if op.Show {
			o := w.players[id]
			if o == nil { // not reached: a leave invalidates the views that want the player
				e.players.Drop(op.ID)
				continue
			}
			if hid {
				e.dropHidden()
				hid = false
			}
			if e.shownBits.has(id) { // a show again at a new rev: placed again
				e.unplaceMove(id, &w.rates.farPh)
			} else { // a fresh show: in neither move list (placeMove)
				e.shownBits.add(id)
				e.shownP = append(e.shownP, id)
			}
			e.freshP = append(e.freshP, id)
			e.placeMove(q.pos, id, w.posOf(id, o), &w.rates.farPh)
			w.sendShow(q, id, o) // players_show.go: encoded once a rev
		} else {
			e.shownBits.del(id)
			hid = true
			e.unplaceMove(id, &w.rates.farPh)
			w.sendHide(q, id)
		}
	}
	if hid {
		e.dropHidden()
	}
	e.playersLeft = e.players.Pending() > 0
}

// dropHidden takes out of shownP the players hidden since (their shownBits
// cleared): one pass over the list for a pass's hides, not one each.
func (e *playerEnt) dropHidden() {
	n := 0
	for _, id := range e.shownP {
		if e.shownBits.has(id) {
			e.shownP[n] = id
			n++
		}
	}
	e.shownP = e.shownP[:n]
}
