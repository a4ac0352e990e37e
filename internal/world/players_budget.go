package world

import (
	"dlmp/internal/grid"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// The views of players computed per tick (a query of the nearest players and
// a reconcile) are at most the tick's budget: max(ViewRate's share of a
// tick, ceil(players / ViewRefresh in ticks)), players being those with a
// stream center (rates.go: 32 and 20 at 20 Hz, 13 and 50 at the default 50).
// Players who start together, or cross a requery distance together, make
// views due in bursts (decision 0243: median 37 per tick, p99 394 in a
// spread crowd of 1000); in a one-spot crowd every view is due all the time.
// The views past the budget stay due and are computed first on the next
// ticks, oldest first, so no view is starved or lost (decision 0256), and
// each due view is computed within ViewRefresh, a second, SA-MP's
// stream_rate (decision 0275). A view computed because a player left (the
// hide of the leaver, at once) is not counted nor deferred.

// viewBudget is the per-tick count of views of players computed, and the
// views deferred past it, oldest first; with the dense table the views of
// players read (refs) and their scratch.
type viewBudget struct {
	tick     uint32    // the tick used counts for
	used     int       // views computed in tick
	limit    int       // the budget of tick
	streamed int       // players with a stream center (in the player grid)
	deferred []*Player // due views past the budget, oldest first; each has ent.deferred set
	head     int       // deferred[:head] are done
	total    uint64    // views deferred, in all (tests, benchmarks)
	waitMax  uint32    // the most ticks a deferred view waited (benchmarks)

	covered     uint64 // views of players queried by Covering first (players_query.go)
	coverMissed uint64 // of those, the ones Covering found too many for, queried again by Nearest

	refs  []playerRef // by player id: what the views read of each player (players_index.go)
	held  []uint64    // by player id, a row each: its heldBy (players_index.go)
	shows []showEnc   // by player id: its show, encoded (players_show.go)
	// a hide's bytes: hideTemplate (set by entities.init) with the id of the last hide sent (players_show.go)
	hideEnc [wire.PlayerShowLen]byte
	sink    uint32       // what readOps read (players_show.go)
	cuts    *grid.Scopes // the players with a stream center, radius: their view's cut (players_cuts.go)
	labels  playerLabels // the labels on players, dense, as the label passes read them (label_pass.go)

	// reconcilePlayers' scratch (players_hold.go).
	ranks []uint64 // the rank keys of the candidates
	sel   []uint64 // a copy of ranks to select in
	mark  idSet    // the new wanted set, while playerChange runs
	hide  []uint32 // playerChange's players to hide
	show  []stream.Want
}

// beginViews starts a tick's budget at the first view of players of the
// tick: the views deferred by the last ticks are computed first, oldest
// first, as far as the budget allows.
func (w *World) beginViews() {
	b := &w.ents.views
	if b.tick == w.ents.tick {
		return
	}
	b.tick, b.used, b.limit = w.ents.tick, 0, w.viewBudget()
	for b.head < len(b.deferred) && b.used < b.limit {
		q := b.deferred[b.head]
		b.deferred[b.head] = nil
		b.head++
		q.ent.deferred = false
		if w.players[q.id] != q || q.gone || q.left || !q.hasPos {
			continue // left or not streamed: nothing to compute
		}
		if !q.ent.playerAt.Due(q.pos, requeryOf(q.id)) {
			continue // computed since (a leave near it)
		}
		b.waitMax = max(b.waitMax, b.tick-q.ent.deferredAt)
		b.used++
		w.streamPlayersNow(q, nil, true)
	}
	if b.head == len(b.deferred) {
		b.deferred, b.head = b.deferred[:0], 0
	} else if b.head > len(b.deferred)/2 {
		n := copy(b.deferred, b.deferred[b.head:])
		clear(b.deferred[n:])
		b.deferred, b.head = b.deferred[:n], 0
	}
}

// viewBudget is how many views of players a tick computes at most:
// enough for every player's view to be computed once in ViewRefresh, and
// ViewRate's share of a tick in a small world.
func (w *World) viewBudget() int {
	r := &w.rates
	return max(r.viewMin, (w.ents.views.streamed+r.viewRefresh-1)/r.viewRefresh)
}

// spendView reports whether q's due view may be computed in this tick,
// counting it; when not, q is deferred to the next ticks.
func (w *World) spendView(q *Player) bool {
	b := &w.ents.views
	if q.ent.deferred {
		return false // waits its turn among the older ones
	}
	if b.used < b.limit {
		b.used++
		return true
	}
	q.ent.deferred, q.ent.deferredAt = true, b.tick
	b.deferred = append(b.deferred, q)
	b.total++
	return false
}
