package world

import (
	"math"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// Colshapes (world.md ColshapeShape; docs/decisions/0117-colshape-events.md).
// A colshape is a server-side collision form (sphere, cylinder, axis-aligned
// box) in a scope. Its outline is shown only to the players the gamemode
// shows it to (Colshape:show; nobody by default) while they are in its
// scope, the 256 nearest by the form's center. The show set lives on the
// Player: it is discarded when they leave, and a new connection starts
// with none.
//
// Who is inside is known only to the server: as MTA's onColShapeHit and
// onColShapeLeave, a spawned player's last accepted PlayerSync position
// entering the form raises colshape_enter, leaving it colshape_leave, and a
// change of scope is a leave. Death is not a leave (the body stays where it
// is). Moving or resizing a colshape raises the crossings it causes at
// once; deleting it and the player leaving raise none. Colshape ids have
// their own counter (monotonic, never reused).

// Colshape forms.
const (
	FormSphere   = wire.FormSphere
	FormCylinder = wire.FormCylinder
	FormBox      = wire.FormBox
)

// ColshapeParams is what create_colshape takes and a change replaces.
type ColshapeParams struct {
	Form uint8 // FormSphere, FormCylinder or FormBox
	// A is the sphere's center, the cylinder's base center or the box's min;
	// B is (radius, 0, 0), (radius, height, 0) or the box's max.
	A, B  grid.Vec
	Scope grid.Scope
}

// Colshape is one colshape. Read it with [World.Colshape].
type Colshape struct {
	params ColshapeParams
	id     uint32
	rev    uint32 // the wire's rev: grows with every change
	h      grid.Handle
}

// ID returns the colshape id.
func (c *Colshape) ID() uint32 { return c.id }

// Rev returns the form's revision.
func (c *Colshape) Rev() uint32 { return c.rev }

// Params returns the colshape's current parameters.
func (c *Colshape) Params() ColshapeParams { return c.params }

// Center returns the form's center: the sphere's center, the middle of the
// cylinder's axis, the box's middle.
func (c *Colshape) Center() grid.Vec {
	switch c.params.Form {
	case FormCylinder:
		return grid.Vec{X: c.params.A.X, Y: c.params.A.Y, Z: c.params.A.Z + c.params.B.Y/2}
	case FormBox:
		return grid.Vec{X: (c.params.A.X + c.params.B.X) / 2, Y: (c.params.A.Y + c.params.B.Y) / 2, Z: (c.params.A.Z + c.params.B.Z) / 2}
	}
	return c.params.A
}

// reach is the radius of a sphere around Center that holds the form.
func (c *Colshape) reach() float32 {
	switch c.params.Form {
	case FormCylinder:
		return float32(math.Hypot(float64(c.params.B.X), float64(c.params.B.Y/2)))
	case FormBox:
		return float32(math.Sqrt(float64(grid.Dist2(c.params.A, c.params.B)))) / 2
	}
	return c.params.B.X
}

// Contains reports whether pos is inside the form (boundary included).
func (c *Colshape) Contains(pos grid.Vec) bool {
	switch c.params.Form {
	case FormCylinder:
		dx, dy := pos.X-c.params.A.X, pos.Y-c.params.A.Y
		return dx*dx+dy*dy <= c.params.B.X*c.params.B.X && pos.Z >= c.params.A.Z && pos.Z <= c.params.A.Z+c.params.B.Y
	case FormBox:
		return pos.X >= c.params.A.X && pos.X <= c.params.B.X && pos.Y >= c.params.A.Y && pos.Y <= c.params.B.Y && pos.Z >= c.params.A.Z && pos.Z <= c.params.B.Z
	}
	return grid.Dist2(pos, c.params.A) <= c.params.B.X*c.params.B.X
}

// Colshape returns the colshape with the id, or nil.
func (w *World) Colshape(id uint32) *Colshape { return w.prims.cols[id] }

// CreateColshape creates a colshape, shown to nobody, and returns its id.
// The form is checked with ColshapeShape's send rules. Players already
// inside get colshape_enter at once.
func (w *World) CreateColshape(cp ColshapeParams) (uint32, error) {
	if err := checkColshape("create_colshape", cp); err != nil {
		return 0, err
	}
	w.prims.nextCol++
	c := &Colshape{params: cp, id: w.prims.nextCol, rev: 1}
	w.prims.cols[c.id] = c
	c.h = w.prims.colG.Get(c.params.Scope).Insert(c.id, c.Center(), c.reach())
	w.colshapeChanged(c)
	return c.id, nil
}

// SetColshape replaces a colshape's form or scope: the rev grows, the
// players it is shown to get the new outline, and the crossings it causes
// are raised at once.
func (w *World) SetColshape(id uint32, cp ColshapeParams) error {
	c := w.prims.cols[id]
	if c == nil {
		return stateErr("set_colshape", "colshape", "no colshape %d", id)
	}
	if err := checkColshape("set_colshape", cp); err != nil {
		return err
	}
	w.unplaceColshape(c)
	c.params = cp
	c.rev++
	c.h = w.prims.colG.Get(c.params.Scope).Insert(c.id, c.Center(), c.reach())
	w.colshapeChanged(c)
	return nil
}

// DeleteColshape deletes a colshape: the players it is shown to get a hide;
// no colshape_leave is raised.
func (w *World) DeleteColshape(id uint32) error {
	c := w.prims.cols[id]
	if c == nil {
		return stateErr("delete_colshape", "colshape", "no colshape %d", id)
	}
	w.unplaceColshape(c)
	delete(w.prims.cols, id)
	for _, p := range w.players {
		if p == nil || p.prims.colShow == nil {
			continue
		}
		delete(p.prims.colIn, id)
		if _, ok := p.prims.colShow[id]; ok {
			delete(p.prims.colShow, id)
			w.reconcileColshapes(p)
		}
	}
	return nil
}

// ShowColshape shows the colshape's outline to p (Colshape:show).
func (w *World) ShowColshape(id uint32, p *Player) error {
	return w.setColshapeShown(id, p, true, "show_colshape")
}

// HideColshape hides the colshape's outline from p.
func (w *World) HideColshape(id uint32, p *Player) error {
	return w.setColshapeShown(id, p, false, "hide_colshape")
}

func (w *World) setColshapeShown(id uint32, p *Player, show bool, fn string) error {
	if w.prims.cols[id] == nil {
		return stateErr(fn, "colshape", "no colshape %d", id)
	}
	if p == nil || p.left || w.players[p.id] != p {
		return stateErr(fn, "player", "must be a connected player")
	}
	p.prims.init()
	if show {
		p.prims.colShow[id] = struct{}{}
	} else {
		delete(p.prims.colShow, id)
	}
	w.reconcileColshapes(p)
	return nil
}

func checkColshape(fn string, cp ColshapeParams) error {
	var pkt wire.ColshapeShape
	(&Colshape{params: cp}).fill(&pkt)
	return fieldArgErr2(fn, pkt.CheckSend())
}

func (w *World) unplaceColshape(c *Colshape) {
	g := w.prims.colG.Get(c.params.Scope)
	g.Remove(c.h)
	if g.Len() == 0 {
		w.prims.colG.Prune(c.params.Scope)
	}
}

// colshapeChanged resends the outline to whom it is shown and raises the
// crossings of every player.
func (w *World) colshapeChanged(c *Colshape) {
	for _, p := range w.players {
		if p == nil || p.left {
			continue
		}
		p.prims.init()
		if _, ok := p.prims.colShow[c.id]; ok {
			w.reconcileColshapes(p)
		}
		w.crossColshape(p, c)
	}
}

// crossColshape raises p's crossing of c, if any.
func (w *World) crossColshape(p *Player, c *Colshape) {
	s := &p.prims
	if s.frozen {
		return
	}
	in := s.hasSync && p.life != NotSpawned && c.params.Scope == p.scope && c.Contains(s.syncPos)
	if _, was := s.colIn[c.id]; in == was {
		return
	}
	if in {
		s.colIn[c.id] = struct{}{}
		w.gm.ColshapeEnter(p, c.id)
	} else {
		delete(s.colIn, c.id)
		w.gm.ColshapeLeave(p, c.id)
	}
}

// checkColshapes raises p's crossings after an accepted sync: a leave of
// every colshape p is in and no longer contains, an enter of every one
// whose form now holds p.
func (w *World) checkColshapes(p *Player) {
	s := &p.prims
	if len(s.colIn) > 0 { // every sync comes here: no map iterator for none
		for id := range s.colIn {
			if c := w.prims.cols[id]; c != nil && !p.left {
				w.crossColshape(p, c)
			}
		}
	}
	g := w.prims.colG.Lookup(p.scope)
	if g == nil || p.left {
		return
	}
	// Only this function uses colHits, and it does not nest (a handler
	// cannot raise a sync), so the scratch survives the events it raises.
	w.prims.colHits = g.Covering(s.syncPos, w.prims.colHits[:0])
	for _, h := range w.prims.colHits {
		if c := w.prims.cols[h.Key]; c != nil && !p.left {
			w.crossColshape(p, c)
		}
	}
}

// leaveColshapes raises a leave of every colshape p is in (a change of
// scope).
func (w *World) leaveColshapes(p *Player) {
	for id := range p.prims.colIn {
		if p.left {
			return
		}
		delete(p.prims.colIn, id)
		w.gm.ColshapeLeave(p, id)
	}
}

// reconcileColshapes diffs p's outline view against the colshapes shown to
// p in their scope.
func (w *World) reconcileColshapes(p *Player) {
	if p.gone || p.left {
		return
	}
	s := &p.prims
	s.init()
	pr := &w.prims
	pr.passes[primColshapes]++
	wants := pr.wants[:0]
	for id := range s.colShow {
		if c := pr.cols[id]; c.params.Scope == p.scope {
			wants = append(wants, stream.Want{ID: id, Rev: c.rev, Dist2: grid.Dist2(p.pos, c.Center())})
		}
	}
	pr.wants = wants
	pr.ops = s.cols.Reconcile(wants, takeRoom(p), stream.HidesFirst, pr.ops[:0])
	pkt := &pr.col
	for _, op := range pr.ops {
		if op.Show {
			pr.cols[op.ID].fill(pkt)
		} else {
			*pkt = wire.ColshapeShape{ColshapeID: op.ID}
		}
		sendOp(w, p, pkt)
	}
}

// fill writes the colshape's show into s.
func (c *Colshape) fill(s *wire.ColshapeShape) {
	*s = wire.ColshapeShape{ColshapeID: c.id, Active: 1, Form: c.params.Form, AX: c.params.A.X, AY: c.params.A.Y, AZ: c.params.A.Z,
		BX: c.params.B.X, BY: c.params.B.Y, BZ: c.params.B.Z, Rev: c.rev}
}
