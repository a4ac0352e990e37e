package world

import (
	"slices"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// Chain bookkeeping: which object is a chain's root, where roots stand in
// the object grid, and which views must compute again after a change.

// chainRoot returns the root of o's chain.
func (w *World) chainRoot(o *Object) *Object {
	for o.kind == KindObject {
		o = o.parent
	}
	return o
}

// rootPlace returns where a root stands for streaming: its scope and
// position (its parent's for a player or a vehicle); ok is false for a
// player's root while the player has no stream center.
func (w *World) rootPlace(o *Object) (grid.Scope, grid.Vec, bool) {
	switch o.kind {
	case KindPlayer:
		pl := w.Player(uint16(o.parentID))
		return pl.scope, pl.pos, pl.hasPos
	case KindVehicle:
		v := w.Vehicle(uint16(o.parentID))
		return v.scope, v.pos, true
	}
	pos, _ := w.currentPose(o)
	return o.scope, pos, true
}

// placeRoot puts (or keeps) a root in the grid of its scope at its place.
func (w *World) placeRoot(o *Object) {
	sc, pos, ok := w.rootPlace(o)
	w.gridRoot(o, sc, pos, ok)
}

func (w *World) gridRoot(o *Object, sc grid.Scope, pos grid.Vec, ok bool) {
	if o.inGrid && (!ok || o.gscope != sc) {
		w.ungridRoot(o)
	}
	if !ok {
		return
	}
	if o.inGrid {
		w.rootGrid(o).Move(o.h, pos)
		return
	}
	o.ruled = o.viewer != nil || o.kind != 0
	o.inGrid, o.gscope = true, sc
	g := w.rootGrid(o)
	o.h = g.Insert(o.id, pos, o.dist)
	w.setWeight(o)
}

// rootScopes returns the grids a root stands in: the object grid for roots
// wanted by distance alone, whose views the box caches answer, or the grid
// of roots with a per-player rule (a viewer, a player or a vehicle holding
// them), few, each query filtering them for its player. Roots that follow
// moving players then change only their own grid.
func (w *World) rootScopes(o *Object) *grid.Scopes {
	if o.ruled {
		return w.ruledRoots
	}
	return w.ents.objectGrid
}

// rootGrid returns the grid a root in a grid stands in.
func (w *World) rootGrid(o *Object) *grid.Grid { return w.rootScopes(o).Get(o.gscope) }

func (w *World) ungridRoot(o *Object) {
	if !o.inGrid {
		return
	}
	s := w.rootScopes(o)
	g := s.Get(o.gscope)
	g.Remove(o.h)
	if g.Len() == 0 {
		s.Prune(o.gscope)
	}
	o.inGrid = false
}

// setWeight writes a root's weight, 1 + its chain, into the grid.
// Its chain's fingerprint is computed again (syncRoot).
func (w *World) setWeight(r *Object) {
	if r.inGrid {
		w.rootGrid(r).SetWeight(r.h, uint32(1+r.chain))
		w.syncRoot(r)
		if !r.ruled {
			w.caches.objMaxW = max(w.caches.objMaxW, 1+r.chain)
		}
	}
}

// subtree returns how many objects are attached below o.
func subtree(o *Object) int {
	n := 0
	for _, c := range o.children {
		n += 1 + subtree(c)
	}
	return n
}

// detachFromParent takes o, with its chain, off whatever holds it (a
// parent's list, the grid): afterwards o is a loose root whose chain is
// its own subtree. The views that had it shown compute again.
func (w *World) detachFromParent(o *Object) {
	w.objectTouched(o)
	switch o.kind {
	case KindObject:
		p := o.parent
		p.children = slices.DeleteFunc(p.children, func(c *Object) bool { return c == o })
		o.chain = subtree(o)
		r := w.chainRoot(p)
		r.chain -= 1 + o.chain
		w.setWeight(r)
	case KindPlayer:
		pl := w.Player(uint16(o.parentID))
		pl.ent.attached = slices.DeleteFunc(pl.ent.attached, func(c *Object) bool { return c == o })
		w.ungridRoot(o)
	case KindVehicle:
		v := w.Vehicle(uint16(o.parentID))
		v.attached = slices.DeleteFunc(v.attached, func(c *Object) bool { return c == o })
		w.ungridRoot(o)
	default:
		w.ungridRoot(o)
	}
	o.kind, o.parentID, o.parent, o.bone = 0, 0, nil, 0
}

// deleteChain deletes a loose root (see detachFromParent) and everything
// below it.
func (w *World) deleteChain(o *Object) {
	for _, c := range o.children {
		w.objectTouched(c)
		w.deleteChain(c)
	}
	o.children = nil
	w.stopMove(o)
	if o.viewer != nil {
		v := &o.viewer.ent
		v.owned = slices.DeleteFunc(v.owned, func(c *Object) bool { return c == o })
	}
	w.ents.objects.remove(o, w.ents.nextObject+1)
	w.ents.hot[o.id] = objectHot{}
	w.ents.objectN--
}

// deleteChains deletes chains attached to a parent that goes.
func (w *World) deleteChains(roots []*Object) {
	for _, r := range slices.Clone(roots) {
		w.detachFromParent(r)
		w.deleteChain(r)
	}
}

// deleteViewerObjects deletes, with their chains, the objects a leaving
// player was the viewer of.
func (w *World) deleteViewerObjects(p *Player) {
	for _, o := range slices.Clone(p.ent.owned) {
		if w.Object(o.id) == o {
			w.detachFromParent(o)
			w.deleteChain(o)
		}
	}
	p.ent.owned = nil
}

// attachedFollow keeps the roots attached to a player or vehicle at their
// parent's place; a change of the parent's interior resends every object
// of their chains (the show carries the interior).
func (w *World) attachedFollow(roots []*Object, sc grid.Scope, pos grid.Vec, interior bool) {
	for _, r := range roots {
		w.gridRoot(r, sc, pos, true)
		if interior {
			w.bumpChain(r)
			w.objectTouched(r)
		}
	}
}

// bumpChain gives o and every object below it a new rev.
func (w *World) bumpChain(o *Object) {
	w.bumpRev(o)
	for _, c := range o.children {
		w.bumpChain(c)
	}
}

// bumpRev gives o a new rev. Its root's grid entry is touched (its rev
// written), so that the box caches see the chain's fingerprint change.
// A member's new rev moves its root's members sum by the difference of
// its two Mix terms (objectHot.members).
func (w *World) bumpRev(o *Object) {
	old := o.rev
	o.rev++
	w.ents.hot[o.id].rev = o.rev
	r := w.chainRoot(o)
	if r != o {
		w.ents.hot[r.id].members += stream.Mix(o.id, o.rev) - stream.Mix(o.id, old)
	}
	if r.inGrid {
		w.rootGrid(r).SetRev(r.h, gridRev(r))
	}
}

// chainSum is a root's term of a box's fingerprint (the object cache's
// sum, and the sum of the object views' grid.Diff steps): the fingerprint of
// the wanted entries of its chain, the root's and every object's below it.
// Every change of it touches the root's grid entry: a rev (bumpRev), the
// chain's weight (setWeight), the root's place.
//
// rev is the root's grid rev (gridRev): for a root alone it is the root's
// rev and the term is Mix(id, rev), read from the hit without touching
// the object; a chain's root is flagged (chainFlag) and its term read from
// objectHot, where the members' sum is kept as they change (O(1), no walk
// of the chain: docs/decisions/0230-chain-fingerprint-kept.md).
func (w *World) chainSum(id, rev uint32) uint64 {
	if rev&chainFlag == 0 {
		return stream.Mix(id, rev)
	}
	hot := &w.ents.hot[id]
	return stream.Mix(id, hot.rev) + hot.members
}

// chainFlag marks the grid rev of a root whose fingerprint is not its own
// Mix alone: a root with objects below it (or, so that the flag is never
// mistaken for part of a rev, a root whose rev has that bit set).
const chainFlag = 1 << 31

// gridRev is the rev a root's grid entry carries (see chainSum).
func gridRev(r *Object) uint32 {
	if r.chain == 0 && r.rev&chainFlag == 0 {
		return r.rev
	}
	return chainFlag | r.rev
}

// hitRev returns the rev of the root of a hit of the object grids (its grid
// rev is gridRev's).
func (w *World) hitRev(h *grid.Hit) uint32 {
	if h.Rev&chainFlag == 0 {
		return h.Rev
	}
	return w.ents.hot[h.Key].rev
}

// syncRoot writes what a root's grid entry and objectHot say of its chain:
// the members' sum, computed again (after a change of the chain's shape),
// and the grid rev.
func (w *World) syncRoot(r *Object) {
	w.ents.hot[r.id].members = membersSum(r)
	if r.inGrid {
		w.rootGrid(r).SetRev(r.h, gridRev(r))
	}
}

// membersSum returns the fingerprint of the objects below o.
func membersSum(o *Object) uint64 {
	var s uint64
	for _, c := range o.children {
		s += stream.Mix(c.id, c.rev) + membersSum(c)
	}
	return s
}

// objectChanged records a change of what o's show carries: a new rev, the
// root's grid position, and the views around it.
func (w *World) objectChanged(o *Object) {
	w.objectTouched(o)
	w.bumpRev(o)
	if o.inGrid && o.kind == 0 {
		pos, _ := w.currentPose(o)
		w.rootGrid(o).Move(o.h, pos)
		w.objectTouched(o)
	}
}

// objectTouched makes the object views compute again for every player
// whose view o's change may alter: the root is within the cut of the
// view's last computation (objectCut), is attached to the player, or o is
// shown to them. It runs before and after a change that moves a root or
// changes its weight, so the cut is tested at both places.
func (w *World) objectTouched(o *Object) {
	if w.count == 0 {
		return
	}
	r := w.chainRoot(o)
	var pos grid.Vec
	if r.inGrid {
		pos = w.rootGrid(r).Position(r.h)
	}
	for _, q := range w.players {
		if q == nil {
			continue
		}
		if r.inGrid && q.objCut.reaches(r, pos) || r.kind == KindPlayer && r.parentID == uint32(q.id) {
			q.ent.objectAt.Invalidate()
			q.spots[cacheObjects].stepOff()
			continue
		}
		if _, shown := q.ent.objects.Shown(o.id); shown {
			q.ent.objectAt.Invalidate()
			q.spots[cacheObjects].stepOff()
		}
	}
}

// rootGridPos returns where a root stands in the grid.
func (w *World) rootGridPos(o *Object) grid.Vec {
	return w.rootGrid(o).Position(o.h)
}

// objectInterior is the interior ObjectState carries: of the object's
// scope, or of its parent.
func (w *World) objectInterior(o *Object) uint8 {
	switch o.kind {
	case KindPlayer:
		return w.Player(uint16(o.parentID)).scope.Interior
	case KindVehicle:
		return w.Vehicle(uint16(o.parentID)).scope.Interior
	case KindObject:
		return w.objectInterior(o.parent)
	}
	return o.scope.Interior
}

// objectShow returns o's show as of now.
func (w *World) objectShow(o *Object) *wire.ObjectState {
	s := new(wire.ObjectState)
	w.fillObject(o, s)
	return s
}

// fillObject writes o's show as of now into s: the current pose, and while
// moving the time left and the target.
func (w *World) fillObject(o *Object, s *wire.ObjectState) {
	pos, rot := w.currentPose(o)
	*s = wire.ObjectState{ObjectID: o.id, Active: 1, Model: o.model,
		X: pos.X, Y: pos.Y, Z: pos.Z, RX: rot.X, RY: rot.Y, RZ: rot.Z,
		ToX: pos.X, ToY: pos.Y, ToZ: pos.Z, ToRX: rot.X, ToRY: rot.Y, ToRZ: rot.Z,
		Interior: int32(w.objectInterior(o)), AttachKind: uint8(o.kind), AttachID: o.parentID,
		Rev: o.rev, Bone: o.bone}
	if o.broken {
		s.Broken = 1
	}
	if o.mv != nil {
		if left := o.mv.Left(w.now.Sub(o.mv.start)); left > 0 {
			ms := (left + 999_999) / 1_000_000 // rounded up: a move in progress never shows 0
			s.MoveMS = uint32(ms)
			to, toRot := toGrid(o.mv.To), toRot(o.mv.ToRot)
			s.ToX, s.ToY, s.ToZ, s.ToRX, s.ToRY, s.ToRZ = to.X, to.Y, to.Z, toRot.X, toRot.Y, toRot.Z
		}
	}
}
