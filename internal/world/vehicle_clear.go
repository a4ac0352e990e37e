package world

import (
	"math"

	"dlmp/internal/grid"
)

// A vehicle view's steady test by the vehicles near its edge
// (docs/decisions/0411-vehicle-view-edge-list.md). Every vehicle covers
// the points within VehicleStreamDistance (R) of it, so while no vehicle
// of the scope changes (the grid's version) a moving player's answer
// changes only when some vehicle's distance to the player crosses R. Once
// per ball of radius vehicleBall (a Verlet list, as grid.Shell is for the
// steps), the view keeps the positions of the vehicles whose distance to
// the ball's center is within vehicleBand of R: every other vehicle is
// more than vehicleBand − vehicleBall from R at every point of the ball
// (triangle inequality), so it is on the same side of R at the last
// answer's point and at the player. A view that falls due within the ball
// (every EntityRequery, and at each of the player's announces) is then
// steady when none of the listed vehicles changed side either, each told
// with a margin of vehicleEdgePad over the rounding of float32 distances;
// otherwise (a real change, or a vehicle within the margin) it steps as
// before. The listed vehicles come from a second grid of the vehicles
// (w.prims.vehEdgeG), whose entries cover R + vehicleBand.
//
// The list is built only when the grid did not change since the view's
// previous answer (a world with drivers changes it every tick: it would be
// built for nothing), and only for an answer the limit does not cut.

const (
	// vehicleBall (meters) is the radius of the ball a list serves.
	vehicleBall = 40
	// vehicleBand (meters): the vehicles within it of R at the ball's
	// center are listed. vehicleBand − vehicleBall is what keeps every
	// other vehicle off R within the ball (more than vehicleEdgePad).
	vehicleBand = 48
	// vehicleEdgePad (meters): a listed vehicle this near R, at the last
	// answer's point or at the player, is not told from the list (the
	// grid's float32 distances are within ~1 mm of the true ones at 4 km
	// from the origin).
	vehicleEdgePad = 0.05
	// vehicleEdgeCell is the edge grid's cell: ~350 m reach in 3×3 to 4×4
	// cells of a few vehicles each, where the stream grid's 64 m cells
	// would be ~12×12.
	vehicleEdgeCell = 256
	// vehicleNearMax is how many vehicles a list holds, in its struct (no
	// miss of their own on a due); a ball with more near its edge (a
	// parking lot on the edge) gets no list and steps as before. The
	// benchmark's 1000 vehicles on 8 km × 8 km put ~2.8 in the band.
	vehicleNearMax = 6
)

// vehicleClear is a vehicle view's list of the vehicles near its edge.
type vehicleClear struct {
	c    grid.Vec                 // the ball's center
	n    uint8                    // near's length
	ok   bool                     // built
	g    *grid.Grid               // the vehicle grid it was built from
	ver  uint64                   // and that grid's version then
	near [vehicleNearMax]grid.Vec // the vehicles within vehicleBand of R at c, their positions
}

// vehicleEdgeInsert adds v to the edge grid of its scope.
func (w *World) vehicleEdgeInsert(v *Vehicle) {
	v.eh = w.prims.vehEdgeG.Get(v.scope).Insert(uint32(v.id), v.pos, VehicleStreamDistance+vehicleBand)
}

// vehicleEdgeRemove takes v out of the edge grid of its scope.
func (w *World) vehicleEdgeRemove(v *Vehicle) {
	g := w.prims.vehEdgeG.Get(v.scope)
	g.Remove(v.eh)
	if g.Len() == 0 {
		w.prims.vehEdgeG.Prune(v.scope)
	}
}

// vehiclesClear reports whether q's vehicle view is steady by its edge
// list: the list and the last answer are of the grid as it is, q and the
// answer's point are in the list's ball, no listed vehicle is on another
// side of R at q than at the answer's point, and the view shows exactly
// that answer. The view is changed only by streamVehiclesDue, which sets
// vehLast to the answer it reconciles or patches the view to and
// vehiclesLeft to whether ops are left: with none left the view shows
// vehLast's answer, told without reading the view. The answer's point
// moves to q.pos (the answer there is the same), so that the next step
// starts from it.
func (w *World) vehiclesClear(q *Player, g *grid.Grid) bool {
	l, c := &q.vehLast, q.vehClear
	if c == nil || w.bruteForce || w.prims.vehEdgeOff || !c.ok || !l.ok || l.g != g || c.g != g || l.scope != q.scope || l.cut != grid.AllCut ||
		c.ver != versionOf(g) || l.ver != c.ver ||
		grid.Dist2(c.c, q.pos) > vehicleBall*vehicleBall || grid.Dist2(c.c, l.at) > vehicleBall*vehicleBall {
		return false
	}
	for _, v := range c.near[:c.n] {
		da, dp := edgeDist(v, l.at), edgeDist(v, q.pos)
		if math.Abs(da) <= vehicleEdgePad || math.Abs(dp) <= vehicleEdgePad || (da < 0) != (dp < 0) {
			return false
		}
	}
	if q.ent.vehiclesLeft {
		return false // ops left: the view does not show the answer yet
	}
	l.at = q.pos
	w.prims.vehicleClear++
	return true
}

// edgeDist is the distance from v to p less R (negative: v covers p).
func edgeDist(v, p grid.Vec) float64 {
	dx, dy, dz := float64(v.X)-float64(p.X), float64(v.Y)-float64(p.Y), float64(v.Z)-float64(p.Z)
	return math.Sqrt(dx*dx+dy*dy+dz*dz) - VehicleStreamDistance
}

// setVehicleClear keeps q's edge list after an answer computed at q.pos
// (q.vehLast) while it serves q.pos in the grid as it is; otherwise builds
// it around q.pos when quiet (the grid's version was the same at the
// previous answer) and the limit cut nothing, or forgets it.
func (w *World) setVehicleClear(q *Player, g *grid.Grid, quiet bool) {
	l, c := &q.vehLast, q.vehClear
	if c != nil && c.ok && c.g == l.g && c.ver == l.ver && grid.Dist2(c.c, q.pos) <= vehicleBall*vehicleBall {
		return // still the grid's, and q in its ball
	}
	if c != nil {
		c.ok = false
	}
	if !quiet || w.bruteForce || w.prims.vehEdgeOff || g == nil || !l.ok || l.g != g || l.cut != grid.AllCut || l.at != q.pos {
		return
	}
	if c == nil {
		c = new(vehicleClear)
		q.vehClear = c
	}
	c.c, c.g, c.ver, c.n = q.pos, g, l.ver, 0
	if eg := w.prims.vehEdgeG.Lookup(q.scope); eg != nil {
		w.prims.vehHits = eg.Covering(q.pos, w.prims.vehHits[:0])
		const inner = (VehicleStreamDistance - vehicleBand - 1) * (VehicleStreamDistance - vehicleBand - 1)
		for _, h := range w.prims.vehHits {
			if h.Dist2 < inner {
				continue // deep inside: not near the edge (by the grid's distance, a meter to spare), its vehicle not read
			}
			v := w.ents.vehicles[h.Key]
			if math.Abs(edgeDist(v.pos, q.pos)) > vehicleBand {
				continue
			}
			if int(c.n) == vehicleNearMax {
				return // too many to list: no list
			}
			c.near[c.n] = v.pos
			c.n++
		}
	}
	c.ok = true
	w.prims.vehicleClears++
}
