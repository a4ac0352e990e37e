package world

import (
	"slices"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
)

// Objects around landings (world.md ObjectState, Ordering around spawns;
// ADR 0125).
//
// Teleport: the objects nearest the landing point go before TeleportPlayer
// in the same queue. The floor is the nearest Floor objects the player
// wants at the point and is not shown yet (or shown at an older rev); they
// may take the send reserve too, except one slot kept for the teleport, and
// the landing's shows go before its hides. With no room for the floor the
// teleport is refused and changes nothing.
//
// Spawn and respawn: SpawnPlayer and RespawnPlayer are held. While held,
// the player's objects stream from the spawn point; once that view has
// converged (nothing pending) the world notes how many messages the
// connection has queued ([Conn.Progress]) and sends the grant when the
// client has acknowledged all of them. With no object at the point the
// grant goes at once.
const (
	// Floor is how many of the objects nearest a landing point go before
	// TeleportPlayer at most: the send reserve but the slot of the teleport.
	Floor = SendReserve - 1
)

// landingHold is a spawn or respawn waiting for the objects at its point.
type landingHold struct {
	at      grid.Vec
	scope   grid.Scope
	release func() // sends the grant and lands the player
	any     bool   // an object is wanted at the point
	marked  bool
	mark    uint64 // Progress's queued count once the view converged
}

// landObjects queues, before a teleport, the objects the player wants at
// the landing point, the floor first, or refuses the teleport when the
// floor does not fit.
func (w *World) landObjects(p *Player, l Landing) error {
	e := &p.ent
	sc := grid.Scope{World: int32(l.World), Interior: l.Interior}
	wants, _ := w.objectWants(p, sc, l.Pos, w.ents.wants[:0], nil)
	w.ents.wants = wants
	need := w.floor(e.objects, wants)
	free := p.conn.Free()
	if need > free-1 {
		return stateErr("teleport", "landing", "the send queue has %d free slots, the %d objects at the landing and the teleport need %d", free, need, need+1)
	}
	budget := max(free-SendReserve, need)
	w.ents.ops = e.objects.Reconcile(wants, budget, stream.ShowsFirst, w.ents.ops[:0])
	p.objCut.left = e.objects.Pending() > 0
	e.objectAt.Mark(l.Pos)
	w.sendObjectOps(p, w.ents.ops)
	return nil
}

// floor counts the objects among the Floor nearest wanted that need a show.
// It reorders wants (scratch).
func (w *World) floor(v *stream.View, wants []stream.Want) int {
	slices.SortFunc(wants, func(a, b stream.Want) int {
		switch {
		case a.Dist2 != b.Dist2:
			return cmpF(a.Dist2, b.Dist2)
		case rootOf(a) != rootOf(b):
			return int(int64(rootOf(a)) - int64(rootOf(b)))
		case a.Depth != b.Depth:
			return int(a.Depth) - int(b.Depth)
		}
		return int(int64(a.ID) - int64(b.ID))
	})
	need := 0
	for _, wt := range wants[:min(len(wants), Floor)] {
		if rev, ok := v.Shown(wt.ID); !ok || rev != wt.Rev {
			need++
		}
	}
	return need
}

func rootOf(w stream.Want) uint32 {
	if w.Depth > 0 {
		return w.Root
	}
	return w.ID
}

func cmpF(a, b float32) int {
	if a < b {
		return -1
	}
	return 1
}

// holdLanding holds a spawn or respawn until the objects at its point are
// queued and acknowledged; release sends it. A later hold replaces an
// earlier one.
func (w *World) holdLanding(p *Player, l Landing, release func()) {
	p.ent.hold = &landingHold{at: l.Pos, scope: grid.Scope{World: int32(l.World), Interior: l.Interior}, release: release}
	p.ent.objectAt.Invalidate()
	w.streamObjects(p)
	w.releaseHold(p)
}

// releaseHold sends a held grant once its objects are acknowledged.
func (w *World) releaseHold(p *Player) {
	h := p.ent.hold
	if h == nil || p.gone || p.left {
		return
	}
	if p.ent.objects.Pending() > 0 {
		return
	}
	if h.any {
		queued, acked := p.conn.Progress()
		if !h.marked {
			h.mark, h.marked = queued, true
		}
		if acked < h.mark {
			return
		}
	}
	p.ent.hold = nil
	p.ent.objectAt.Invalidate()
	h.release()
}

// Holding reports whether a spawn or respawn of the player waits for the
// objects at its point.
func (p *Player) Holding() bool { return p.ent.hold != nil }
