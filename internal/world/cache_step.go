package world

import (
	"dlmp/internal/grid"
)

// viewStep is what a player keeps of one kind's last answer so that the
// next pass tells the view's change instead of listing the whole set
// (docs/decisions/0231-world-views-by-step.md): the point and scope it was
// computed at, the grid it came from, its cut (grid.CutOf) and the view's
// shell (grid.Shell, decision 0211). The grid's Diff re-reads the old
// answer on the grid as it is now, and the view's Patch refuses the step
// unless it shows exactly that answer, so a stale viewStep costs a refused
// step, never a wrong view.
type viewStep struct {
	at    grid.Vec
	scope grid.Scope
	g     *grid.Grid
	cut   uint64
	ok    bool
	shell grid.Shell
}

// from returns whether a query at at in sc on g is to be told as a step
// from st, and forgets the shell of another grid (its change stamps are
// not g's). A query within cacheSettle of the last is the box caches'
// (decision 0207: a player who stays; their steady check and repeats cost
// less than a step's scan); a step is for a player who moved.
func (st *viewStep) from(sc grid.Scope, g *grid.Grid, at grid.Vec) bool {
	if st.g != g {
		st.g, st.shell, st.ok = g, grid.Shell{}, false
	}
	return st.ok && st.scope == sc && grid.Dist2(st.at, at) > cacheSettle*cacheSettle
}

// set records an answer computed at at in sc on g with cut.
func (st *viewStep) set(sc grid.Scope, g *grid.Grid, at grid.Vec, cut uint64) {
	if st.g != g {
		st.shell = grid.Shell{}
	}
	st.at, st.scope, st.g, st.cut, st.ok = at, sc, g, cut, true
}

// stepOff makes the kind's next pass a listed one: a change reached the
// view (an entity it may show changed), and a step from its last answer
// would find the view no longer showing that answer at the changed revs
// and be refused after its scan (decision 0231).
func (sp *cacheSpot) stepOff() {
	if sp.step != nil {
		sp.step.ok = false
	}
}

// stepOf returns the viewStep kept in sp, made on first use.
func (sp *cacheSpot) stepOf() *viewStep {
	if sp.step == nil {
		sp.step = new(viewStep)
	}
	return sp.step
}

// Skins of the views' shells: about 3.5 re-query thresholds (decision
// 0211), so that a straight walker gets three steps from a shell.
const (
	objectSkin = 3.5 * ObjectRequery
	pickupSkin = 3.5 * PickupRequery
)
