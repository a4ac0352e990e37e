package world

import (
	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// pickupStep tells p's pickup view's change from its last answer to p's
// point (grid.DiffIn with the view's shell; pickups are every active
// pickup covering the point, never cut) and sends the ops, or reports
// false (nothing done) when the view does not show the old answer
// (docs/decisions/0231-world-views-by-step.md).
func (w *World) pickupStep(p *Player) bool {
	g := w.pickupGrid.Lookup(p.scope)
	st := p.spots[cachePickups].stepOf()
	if w.bruteForce || g == nil || !st.from(p.scope, g, p.pos) || p.pickups.Pending() > 0 {
		return false
	}
	c := &w.caches
	s := &c.step
	if !g.DiffIn(&st.shell, pickupSkin, st.at, p.pos, grid.NoLimit, grid.AllCut, stream.Mix, s) {
		c.refused[cachePickups]++
		return false
	}
	ops, ok := p.pickups.PatchStep(s, p.conn.Free()-SendReserve, stream.HidesFirst, w.ops[:0])
	w.ops = ops
	if !ok {
		c.refused[cachePickups]++
		return false
	}
	c.stepped[cachePickups]++
	if s.Shell {
		c.shelled[cachePickups]++
	}
	st.set(p.scope, g, p.pos, grid.AllCut)
	if len(ops) == 0 {
		w.prims.pickupSame++
	}
	w.prims.pickupOps += uint64(len(ops))
	w.sendPickupOps(p, ops)
	return true
}

// pickupStepFrom records, after a listed pass of p's pickup view, its
// answer as the next step's start.
func (w *World) pickupStepFrom(p *Player) {
	st := p.spots[cachePickups].stepOf()
	if g := w.pickupGrid.Lookup(p.scope); g != nil && !w.bruteForce {
		st.set(p.scope, g, p.pos, grid.AllCut)
	} else {
		st.ok = false
	}
}

// sendPickupOps queues the shows and hides of a reconcile, critical.
//
// The shows' rows (pickup_rows.go) are loaded first, all of them, in a loop
// short enough that the CPU has their misses in flight, as sendObjectOps
// does for objects (decision 0234); then each op is filled and sent in
// order. A show is of a live pickup (the views want only pickups in the
// grid, which a delete leaves at once), so its row is there: the first
// loop's nil check is only for the loop's sake.
func (w *World) sendPickupOps(p *Player, ops []stream.Op) {
	t := &w.prims.pkRows
	c := &w.caches
	revs := uint32(0)
	for _, op := range ops {
		if op.Show {
			if r := t.row(op.ID); r != nil {
				revs ^= r.rev
			}
		}
	}
	c.pkIDs = revs
	for _, op := range ops {
		if op.Show {
			t.row(op.ID).fill(op.ID, &w.ps)
		} else {
			w.ps = wire.PickupSync{PickupID: op.ID}
		}
		w.send(p, &w.ps, lane.Critical)
	}
}
