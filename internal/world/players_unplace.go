package world

// A pass's hides take their players out of the viewer's near and far
// movers (player_moves.go) in one go (decision 0397). unplaceMove takes
// one id out of each list by a scan (removeID: the first match, swapped
// with the last), and a crossing's pass hides ~85 players from a viewer's
// lists of ~50 and ~40: ~100 ids compared a hide. unplaceMoves leaves the
// lists exactly as unplaceMove for each id in turn would, order included
// (the order the moves are sent in): each id's place is indexed once a
// list, and each removal swaps the list's last into it, as removeID does.

// unplaceBatch is how many hides a pass has at least before its lists are
// indexed rather than scanned for each.
const unplaceBatch = 4

// unplaceMoves takes the players ids, hidden in that order, out of e's near
// and far movers, as e.unplaceMove(id) for each in turn would.
func (w *World) unplaceMoves(e *playerEnt, ids []uint16) {
	if len(ids) < unplaceBatch {
		for _, id := range ids {
			e.unplaceMove(id)
		}
		return
	}
	e.nearP = w.removeIDs(e.nearP, ids)
	for k := range e.farP {
		e.farP[k] = w.removeIDs(e.farP[k], ids)
	}
}

// removeIDs returns s without ids, as removeID(s, id) for each id in turn
// would: the same elements in the same order. An id not in s changes
// nothing. When an id is in s twice (not reached: a list holds each
// shown player once), it falls back to removeID for each.
func (w *World) removeIDs(s []uint16, ids []uint16) []uint16 {
	if len(s) == 0 {
		return s
	}
	pos := w.ents.views.movePos // by id: its index in s; stale for ids not in s
	for i, x := range s {
		if int(x) >= len(pos) {
			pos = append(pos, make([]uint16, int(x)+1-len(pos))...)
		}
		if p := int(pos[x]); p < i && s[p] == x { // x twice: removeID takes the first
			w.ents.views.movePos = pos
			for _, id := range ids {
				s = removeID(s, id)
			}
			return s
		}
		pos[x] = uint16(i)
	}
	w.ents.views.movePos = pos
	for _, id := range ids {
		if int(id) >= len(pos) {
			continue // not in s: every id of s is indexed
		}
		i := int(pos[id])
		if i >= len(s) || s[i] != id {
			continue // not in s (each id of s is once, at its index)
		}
		last := s[len(s)-1]
		s[i] = last
		pos[last] = uint16(i)
		s = s[:len(s)-1]
	}
	return s
}
