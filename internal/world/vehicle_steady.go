package world

import (
	"dlmp/internal/grid"
	"dlmp/internal/stream"
)

// A vehicle view found steady without a grid query (decision 0215), or
// told as a step from its last answer (docs/decisions/0271-vehicle-steps.md).
// The vehicle grid's radius is the stream distance, so its answer (every
// vehicle covering the point, up to VehicleLimit) is the wanted set: a
// moving player's view is told by grid.DiffIn with the view's shell, as
// pickups are (decision 0231), and applied by View.PatchStep, which
// refuses unless the view shows exactly the old answer.

// vehicleSkin (meters) is the skin of a vehicle view's shell: 3.5 requeries,
// as the other kinds' (decision 0211).
const vehicleSkin = 3.5 * EntityRequery

// vehicleQuery is what a player's vehicle view was last computed from: the
// viewStep (the scope, the scope's vehicle grid (nil: none), the point, the
// cut of the answer there (grid.CutOf) and the view's shell), the grid's
// version, and the wanted set's count and fingerprint (every vehicle weighs
// 1).
type vehicleQuery struct {
	viewStep
	ver  uint64
	n    int
	sum  uint64
	left bool // the view had ops left after its last reconcile (streamVehicles)
}

// set records the answer of n vehicles with fingerprint sum and cut
// computed at at in sc on g.
func (l *vehicleQuery) set(sc grid.Scope, g *grid.Grid, at grid.Vec, cut uint64, n int, sum uint64) {
	l.viewStep.set(sc, g, at, cut)
	l.ver, l.n, l.sum = versionOf(g), n, sum
}

func versionOf(g *grid.Grid) uint64 {
	if g == nil {
		return 0
	}
	return g.Version()
}

// vehiclesSteady reports whether q's vehicle view needs no recompute: q
// stands where it was last computed, in the same grid (g, q's scope's), and
// no vehicle of the grid was inserted, moved, removed or given a new rev
// since (the grid's version; every rev change sets the entry's rev), so the
// wanted set is the one computed then, and the view shows exactly it
// (stream.View.Unchanged, which also drops leftover ops as Reconcile
// would). A view that another player's announce made due then costs no
// grid query.
func (w *World) vehiclesSteady(q *Player, g *grid.Grid) bool {
	l := &q.vehLast
	if w.bruteForce || !l.ok || l.g != g || l.ver != versionOf(g) || l.at != q.pos {
		return false
	}
	if !q.ent.vehiclesV.Unchanged(l.n, uint64(l.n), l.sum) {
		return false
	}
	w.caches.vehicleSteady++
	return true
}

// vehicleStep tells q's vehicle view's change from its last answer to q's
// point (grid.DiffIn with the view's shell) and patches the view, the ops
// in w.ents.ops; or reports false (nothing done) when the grid cannot tell
// it, the view has ops left, or it does not show the old answer.
func (w *World) vehicleStep(q *Player, g *grid.Grid) bool {
	l := &q.vehLast
	v := q.ent.vehiclesV
	if w.bruteForce || g == nil || !l.ok || l.g != g || v.Pending() > 0 {
		return false
	}
	s := &w.prims.step
	if !g.DiffIn(&l.shell, vehicleSkin, l.at, q.pos, VehicleLimit, l.cut, stream.Mix, s) {
		return false
	}
	ops, ok := v.PatchStep(s, q.conn.Free()-SendReserve, stream.HidesFirst, w.ents.ops[:0])
	w.ents.ops = ops
	if !ok {
		return false
	}
	l.set(q.scope, g, q.pos, s.Cut, s.N, s.Sum) // the new answer's count and fingerprint (stream.Mix)
	w.prims.vehicleSteps++
	return true
}
