package world

import (
	"math"

	"dlmp/internal/grid"
)

// The viewers by their cut (decision 0296). A player's announce
// invalidates a viewer that does not hold it only if it ranks within that
// view's cut (announceMover): within PlayerStreamDistance and within the
// cut's distance, about that of the PlayerLimit-th nearest (45 m in the
// crowd of 1000 in a disc of 100 m). The player grid stores each player
// with entityReach (321 m), so its covering query around a mover returned
// the whole crowd, and each was tested. The cut grid stores each player
// at the same point with the radius of its own view's cut (cutRadius),
// so that its covering query returns the viewers whose cut the mover may
// rank within, a superset of those the test then invalidates. It is kept
// with the player grid (placePlayer, removePlayerGrid) and with the cut
// (reconcilePlayers). A player stands in it where it last moved it
// (playerEnt.cutAt), within EntityRequery of where it is: a sync moves it
// only past that (syncAccepted), one in ~12 at a runner's pace, and its
// radius is widened by as much.

// cutRadius is the radius a viewer covers in the cut grid for its view's
// cut: the largest distance at which a player it does not hold ranks
// within it (ranksIn), widened for the rounding of the square root and
// by how far the viewer may be from its place in the grid.
func cutRadius(cut float32) float32 {
	d2 := min(cut, PlayerStreamDistance*PlayerStreamDistance)
	return float32(math.Sqrt(float64(d2)))*(1+1e-5) + 0.01 + EntityRequery
}

// cutGrid returns the cut grid of the scope, made on first use.
func (w *World) cutGrid(sc grid.Scope) *grid.Grid {
	b := &w.ents.views
	if b.cuts == nil {
		b.cuts = grid.NewScopes(playerCell)
	}
	return b.cuts.Get(sc)
}

// placeCut puts p in the cut grid of its scope at its position, as
// placePlayer does in the player grid; inserted says it was not in it.
func (w *World) placeCut(p *Player, inserted bool) {
	e := &p.ent
	e.cutAt = p.pos
	if inserted {
		e.ch = w.cutGrid(p.scope).Insert(uint32(p.id), p.pos, cutRadius(w.ref(p.id).cut))
		return
	}
	w.ents.views.cuts.Get(p.scope).Move(e.ch, p.pos)
}

// syncCut moves p in the cut grid of its scope when a sync took it more
// than EntityRequery from its place there.
func (w *World) syncCut(p *Player) {
	if e := &p.ent; grid.Dist2(e.cutAt, p.pos) > EntityRequery*EntityRequery {
		w.placeCut(p, false)
	}
}

// removeCut takes p out of the cut grid of its scope (e.gscope), as
// removePlayerGrid does out of the player grid.
func (w *World) removeCut(p *Player) {
	s := w.ents.views.cuts
	g := s.Get(p.ent.gscope)
	g.Remove(p.ent.ch)
	if g.Len() == 0 {
		s.Prune(p.ent.gscope)
	}
}

// setCut records q's view's cut, in its ref and in the cut grid.
func (w *World) setCut(q *Player, cut float32) {
	w.ref(q.id).cut = cut
	if e := &q.ent; e.inGrid {
		w.ents.views.cuts.Get(e.gscope).SetRadius(e.ch, cutRadius(cut))
	}
}
