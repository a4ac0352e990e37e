package world

import (
	"math"

	"dlmp/internal/grid"
)

// A vehicle view's clearance (docs/decisions/0411-vehicle-view-clearance.md).
// Every vehicle covers the points within VehicleStreamDistance (R) of it,
// so while no vehicle of the scope changes (the grid's version) a moving
// player's answer stays the same as long as no vehicle's distance crosses
// R. From the point p0 of an answer, with m the least |d(v, p0) − R| over
// the vehicles within R + vehicleClearMax (and vehicleClearMax when there
// are none), every point p within m of p0 has the same answer: by the
// triangle inequality |d(v, p) − d(v, p0)| ≤ |p − p0| < m, so no vehicle
// changes side. A view that falls due there (every EntityRequery, and at
// each of the player's announces) is then found steady without a step. The
// vehicles near R + vehicleClearMax are found in a second grid of the
// vehicles (w.prims.vehEdgeG), whose entries cover that far.
//
// The clearance is computed only when the grid did not change since the
// view's previous answer (a world with drivers changes it every tick: it
// would be computed for nothing), and only for an answer the limit does
// not cut.

const (
	// vehicleClearMax (meters) bounds the clearance: the edge grid's
	// entries reach this far past R.
	vehicleClearMax = 40
	// vehicleClearPad (meters) is taken off the clearance for the rounding
	// of float32 positions and distances (~1 mm at 4 km from the origin).
	vehicleClearPad = 0.05
	// vehicleEdgeCell is the edge grid's cell: ~340 m reach in 3×3 to 4×4
	// cells of a few vehicles each, where the stream grid's 64 m cells
	// would be ~12×12.
	vehicleEdgeCell = 256
)

// vehicleClear is where a vehicle view's answer is known to hold.
type vehicleClear struct {
	at  grid.Vec // the answer's point
	r2  float32  // the clearance, squared: the answer holds within it
	ver uint64   // the vehicle grid's version it was computed at
	ok  bool
}

// vehicleEdgeInsert adds v to the edge grid of its scope.
func (w *World) vehicleEdgeInsert(v *Vehicle) {
	v.eh = w.prims.vehEdgeG.Get(v.scope).Insert(uint32(v.id), v.pos, VehicleStreamDistance+vehicleClearMax)
}

// vehicleEdgeRemove takes v out of the edge grid of its scope.
func (w *World) vehicleEdgeRemove(v *Vehicle) {
	g := w.prims.vehEdgeG.Get(v.scope)
	g.Remove(v.eh)
	if g.Len() == 0 {
		w.prims.vehEdgeG.Prune(v.scope)
	}
}

// vehiclesClear reports whether q's vehicle view is steady by its
// clearance: q is within it of the last answer's point, no vehicle of the
// grid changed since, and the view shows exactly that answer (as
// vehiclesSteady). The answer's point moves to q.pos (the answer there is
// the same), so that the next step starts from it.
func (w *World) vehiclesClear(q *Player, g *grid.Grid) bool {
	l, c := &q.vehLast, &q.vehClear
	if w.bruteForce || !c.ok || !l.ok || l.g != g || l.scope != q.scope || c.ver != versionOf(g) || l.ver != c.ver ||
		grid.Dist2(c.at, q.pos) >= c.r2 {
		return false
	}
	if !q.ent.vehiclesV.Unchanged(l.n, uint64(l.n), l.sum) {
		return false
	}
	l.at = q.pos
	w.prims.vehicleClear++
	return true
}

// setVehicleClear computes q's clearance at the answer just computed at
// q.pos (q.vehLast), when quiet (the grid's version was the same at the
// previous answer) and the limit cut nothing; otherwise it forgets it.
func (w *World) setVehicleClear(q *Player, g *grid.Grid, quiet bool) {
	l, c := &q.vehLast, &q.vehClear
	c.ok = false
	if !quiet || w.bruteForce || g == nil || !l.ok || l.cut != grid.AllCut || l.at != q.pos {
		return
	}
	m := float32(vehicleClearMax)
	if eg := w.prims.vehEdgeG.Lookup(q.scope); eg != nil {
		w.prims.vehHits = eg.Covering(q.pos, w.prims.vehHits[:0])
		for _, h := range w.prims.vehHits {
			d := float32(math.Sqrt(float64(h.Dist2)))
			m = min(m, float32(math.Abs(float64(d-VehicleStreamDistance))))
		}
	}
	m -= vehicleClearPad
	if m <= 0 {
		return
	}
	c.at, c.r2, c.ver, c.ok = q.pos, m*m, l.ver, true
	w.prims.vehicleClears++
}
