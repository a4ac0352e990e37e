package world

import "dlmp/internal/grid"

// The query of a view of players (decision 0418). A view's candidates are
// the PlayerLimit+1 nearest players whose radius (entityReach) covers the
// viewer (the grid's Nearest). When fewer cover it, that is every one of
// them: the grid's Covering, the same set with the same distances, found
// without Nearest's rings and selection. In a hot spot of ~100 players
// every view is so; in a crowd of more than PlayerLimit none is. A view
// whose last query found no more than coverHits tries Covering first and
// takes Nearest only when Covering found more than PlayerLimit+1.
// The order of the hits differs, which nothing reads: the wanted set is a
// set, its selection (nthSmallest) and fingerprint are of the set, and
// the view's ops are ordered by the view (stream: hides in table order,
// shows nearest first).

// coverHits is the most hits a view's last query may have found for its
// next query to try Covering first: below PlayerLimit+1 by a margin, so
// that a view at the edge of a crowd does not query twice on every pass.
const coverHits = PlayerLimit * 3 / 4

// playerCandidates returns the hits of q's query of players in g (q's
// scope's player grid), in w.ents.hits: the PlayerLimit+1 nearest covering
// q.pos, or all of them when fewer.
func (w *World) playerCandidates(g *grid.Grid, q *Player) []grid.Hit {
	e := &q.ent
	hits := w.ents.hits[:0]
	if int(e.lastHits) <= coverHits {
		w.ents.views.covered++
		hits = g.Covering(q.pos, hits)
		if len(hits) <= PlayerLimit+1 {
			e.lastHits = uint16(len(hits))
			return hits
		}
		w.ents.views.coverMissed++
		hits = hits[:0]
	}
	hits = g.Nearest(q.pos, PlayerLimit+1, hits)
	e.lastHits = uint16(len(hits))
	return hits
}
