package world

import (
	"math"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
)

// The hold of a view of players (docs/protocol.md, Streaming players and
// vehicles; decision 0260). In a crowd the PlayerLimit nearest change at
// their edge on every step: without a hold, a player at the cut was hidden
// and shown again as it and its neighbours jittered across it, with the
// labels on it, and every such step made the view compute again. A player
// the view wanted at its last pass (held: shown, or left to show) ranks as
// if nearer, its squared distance times PlayerHoldFactor, and stays within
// PlayerStreamDistance + PlayerHoldMargin; any other player ranks at its
// squared distance and must be within PlayerStreamDistance. The view wants
// the PlayerLimit eligible players of the smallest rank (ties by id). So a
// player newly nearer than the farthest held one in those terms takes its
// place, the limit is never exceeded, and a leave or a change of scope
// hides at once (a held player in another scope or gone is not eligible).
//
// A full view's cut, which announceMover tests a moving player's rank
// against (ranksIn), lies midway between the largest rank of the wanted
// players once they are held and the smallest rank of the others (no
// player the query did not reach ranks nearer than its farthest hit): the
// view's last pass holds as long as no player's rank crosses it, and a
// player's step computes the view again only when its rank does. A player
// just shown ranks at its held rank from then on, so the cut leaves it
// room both ways.
const (
	// PlayerHoldFactor scales a held player's squared distance in the
	// ranking (it ranks as if 20 % nearer): it keeps its place until it
	// is 1.25 times as far as the nearest player left out (about 11 m at
	// the 45 m cut of 1000 players in a disc of 100 m, 5.5 m at the 22 m
	// cut of a disc of 50 m). At 0.8 (1.12 times) a random-walking crowd
	// was sent 22 % fewer shows and hides than without a hold, at 0.64
	// 34 % (decision 0260).
	PlayerHoldFactor = 0.64
	// PlayerHoldMargin is how far, meters, past PlayerStreamDistance a held
	// player stays shown.
	PlayerHoldMargin = 10
)

// holdFactor is PlayerHoldFactor as the ranking reads it: a test sets it
// to 1 (no hold) to measure what the hold saves.
var holdFactor float32 = PlayerHoldFactor

// noCut is a view's cut when fewer than PlayerLimit players are eligible:
// every eligible player is wanted.
const noCut = math.MaxFloat32

// rankOf returns the rank of a player at squared distance d2 in the view,
// held or not (its squared distance, scaled for a held one), and whether
// it is eligible (within the stream distance, with the margin for a held
// one).
func rankOf(d2 float32, held bool) (rank float32, ok bool) {
	if held {
		const far = PlayerStreamDistance + PlayerHoldMargin
		return d2 * holdFactor, d2 <= far*far
	}
	return d2, d2 <= PlayerStreamDistance*PlayerStreamDistance
}

// ranksIn reports whether a player at squared distance d2, held or not,
// is wanted by the view's rule against its last pass's cut: eligible and
// ranked within the cut (noCut while fewer than PlayerLimit are
// eligible). announceMover compares it with whether the view holds it.
func ranksIn(d2 float32, held bool, cut float32) bool {
	r, ok := rankOf(d2, held)
	return ok && r <= cut
}

// reconcilePlayers computes q's wanted set of players (the PlayerLimit of
// the smallest rank among the eligible, see above), records it
// (wantBits, wantP) with its cut, and reconciles q's view with it; it
// returns the ops to send.
//
// The candidates are the PlayerLimit+1 nearest players by distance (the
// grid's Nearest) and the held ones: a player outside both is not held and
// has PlayerLimit others nearer (ties by id), none of them ranked farther
// than its distance, so it is not wanted. A leaver is out of the grid
// (playerLeft removes it first), so neither a hit nor kept when held.
func (w *World) reconcilePlayers(q *Player) []stream.Op {
	e := &q.ent
	w.ents.passes[0]++
	wants, ranks := w.ents.wants[:0], w.ents.views.ranks[:0]
	var far float32 // the farthest hit's squared distance, read in the loop that reads the hits
	refs := w.ents.views.refs
	if g := w.ents.playerGrid.Lookup(q.scope); g != nil {
		w.ents.hits = w.playerCandidates(g, q)
		for _, h := range w.ents.hits {
			far = max(far, h.Dist2)
			id := uint16(h.Key)
			if id == q.id || e.wants(id) { // a held one is taken below, at its rank
				continue
			}
			if r, ok := rankOf(h.Dist2, false); ok {
				wants = append(wants, stream.Want{ID: h.Key, Rev: refs[id].rev, Dist2: h.Dist2})
				ranks = append(ranks, rankKey(r, h.Key))
			}
		}
		for _, id := range e.wantP {
			o := &refs[id]
			if !o.inGrid || o.scope != q.scope {
				continue // left or in another scope: hidden at once
			}
			d2 := grid.Dist2(q.pos, o.pos)
			if r, ok := rankOf(d2, true); ok {
				wants = append(wants, stream.Want{ID: uint32(id), Rev: o.rev, Dist2: d2})
				ranks = append(ranks, rankKey(r, uint32(id)))
			}
		}
	}
	cut := float32(noCut)
	if len(wants) >= PlayerLimit {
		// Full: the PlayerLimit smallest ranks.
		w.ents.views.sel = append(w.ents.views.sel[:0], ranks...)
		last := nthSmallest(w.ents.views.sel, PlayerLimit-1)
		var in float32                      // the largest rank of the wanted once held
		out := float32(noCut)               // the smallest rank of the others
		if len(w.ents.hits) > PlayerLimit { // a player the query did not reach is no nearer than its farthest hit
			out = far
		}
		n := 0
		for i := range wants {
			if ranks[i] <= last {
				r, _ := rankOf(wants[i].Dist2, true)
				in = max(in, r)
				wants[n] = wants[i]
				n++
			} else if r, ok := rankOf(wants[i].Dist2, false); ok {
				out = min(out, r)
			}
		}
		wants = wants[:n]
		if out != noCut {
			cut = in + (out-in)/2
		}
	}
	w.setCut(q, cut)
	var sum uint64 // the wanted set's fingerprint (stream.Mix)
	for i := range wants {
		sum += stream.Mix(wants[i].ID, wants[i].Rev)
	}
	w.ents.wants, w.ents.views.ranks = wants, ranks
	e.playerAt.Mark(q.pos)
	// A steady view (the wanted set is the shown one, at the same revs) is
	// recognized from the fingerprint, without the diff; the wanted set,
	// the shown one unless ops were left, stays.
	pending := e.players.Pending() > 0
	if e.players.Unchanged(len(wants), uint64(len(wants)), sum) {
		w.ents.steady++
		if pending { // the ops left are dropped: the wanted set is the shown one
			hide, show, _ := w.playerChange(q, wants)
			w.setWants(q, wants, hide, show)
		}
		return w.ents.ops[:0]
	}
	hide, show, was := w.playerChange(q, wants)
	n := len(e.wantP)
	w.setWants(q, wants, hide, show)
	budget := q.conn.Free() - SendReserve
	if !pending {
		// The view shows its last wanted set: the change is the players
		// that came and went (a crowd's pass changes a few of 200), which
		// Patch takes without the diff of the whole set; it refuses, and
		// Reconcile diffs, if a rev changed since.
		if ops, ok := e.players.Patch(n, was, hide, show, budget, stream.HidesFirst, w.ents.ops[:0]); ok {
			return ops
		}
	}
	return e.players.Reconcile(wants, budget, stream.HidesFirst, w.ents.ops[:0])
}

// playerChange returns how q's new wanted set differs from its last
// (wantP): the players to hide and to show, and the last set's fingerprint
// at the players' current revs.
func (w *World) playerChange(q *Player, wants []stream.Want) (hide []uint32, show []stream.Want, was uint64) {
	e, b := &q.ent, &w.ents.views
	hide, show = b.hide[:0], b.show[:0]
	for i := range wants {
		id := uint16(wants[i].ID)
		b.mark.add(id)
		if !e.wants(id) {
			show = append(show, wants[i])
		}
	}
	for _, id := range e.wantP {
		was += stream.Mix(uint32(id), b.refs[id].rev)
		if !b.mark.has(id) {
			hide = append(hide, uint32(id))
		}
	}
	for i := range wants {
		b.mark.del(uint16(wants[i].ID))
	}
	b.hide, b.show = hide, show
	return hide, show, was
}

// rankKey orders candidates by rank, then id: a rank is never negative, so
// its bits order as the number does.
func rankKey(rank float32, id uint32) uint64 {
	return uint64(math.Float32bits(rank))<<32 | uint64(id)
}

// setWants records wants as q's view's wanted set (wantP), hide and show
// being how it differs from the last (playerChange), and keeps wantBits
// and each player's heldBy row (the viewers whose view wants it) in step:
// only the players that came or went are touched, in the dense rows
// (players_index.go), not in the players' structs.
func (w *World) setWants(q *Player, wants []stream.Want, hide []uint32, show []stream.Want) {
	e := &q.ent
	for _, id := range hide {
		e.wantBits.del(uint16(id))
		w.heldBy(uint16(id)).del(q.id) // a leaver's row is clear (playerLeft)
	}
	for i := range show {
		id := uint16(show[i].ID)
		e.wantBits.add(id)
		w.heldBy(id).set(q.id)
	}
	e.wantP = e.wantP[:0]
	for i := range wants {
		e.wantP = append(e.wantP, uint16(wants[i].ID))
	}
}

// wants reports whether q's view wants o as of its last pass (shown, or
// left to show by it): o is held.
func (e *playerEnt) wants(id uint16) bool { return e.wantBits.has(id) }
