package world

import (
	"math"

	"dlmp/internal/grid"
)

// A vehicle view found steady without a grid query (decisions 0215 and
// 0235): the wanted set computed at a point holds at every point nearer
// to it than any vehicle came to the stream distance, in the same grid at
// the same version.

// vehicleQuery is what a player's vehicle view was last computed from: the
// scope's vehicle grid (nil: none) and its version, the point, how far from
// it the wanted set holds (hold), and the wanted set's count and
// fingerprint (every vehicle weighs 1).
type vehicleQuery struct {
	g    *grid.Grid
	ver  uint64
	at   grid.Vec
	hold float64
	n    int
	sum  uint64
}

// holdSlack (meters, and relative to the stream distance) pads the hold
// distance for the float32 rounding of the grid's squared distances, as
// the box caches pad theirs (decision 0190).
const holdSlack = 0.01 + 1e-5*entityReach

// holds reports whether the wanted set computed at l.at is the wanted set
// at p, for the same grid at the same version: every vehicle shown is
// within the stream distance of p and every other one farther (or past
// the query's reach), since none is nearer to that distance than l.hold
// from l.at.
func (l *vehicleQuery) holds(p grid.Vec) bool {
	return math.Sqrt(float64(grid.Dist2(l.at, p)))+holdSlack < l.hold
}

func versionOf(g *grid.Grid) uint64 {
	if g == nil {
		return 0
	}
	return g.Version()
}

// vehiclesSteady reports whether q's vehicle view needs no recompute: q
// stands where it was last computed, or nearer to it than any vehicle was
// to the stream distance (vehicleQuery.holds), in the same grid (g, q's
// scope's), and no vehicle of the grid was inserted, moved, removed or
// given a new rev since (the grid's version; every rev change sets the
// entry's rev), so the wanted set is the one computed then, and the view
// shows exactly it (stream.View.Unchanged, which also drops leftover ops as
// Reconcile would). A vehicle's rev changes only with a pose set
// (placeVehicle), which moves its grid entry. The full pass of players who
// stand or shift a little then costs no grid query, nor does a view that
// another player's announce made due (docs/benchmarks/world3-prims.md); a
// scope with a driver moving re-queries every pass, as before.
func (w *World) vehiclesSteady(q *Player, g *grid.Grid) bool {
	l := &q.vehLast
	if w.bruteForce || l.g != g || l.ver != versionOf(g) || l.at != q.pos && !l.holds(q.pos) {
		return false
	}
	if !q.ent.vehiclesV.Unchanged(l.n, uint64(l.n), l.sum) {
		return false
	}
	w.caches.vehicleSteady++
	return true
}
