package world

import "dlmp/internal/grid"

// The views of players read the other players through a dense table by
// player id (playerRef) and each player's heldBy row, not the players'
// structs: in a crowd of 1000, a player's announce tests every viewer
// around it, and a view's pass every player it holds, and a struct each
// was a cache miss each (decision 0261). The heldBy rows are one table
// too (decision 0397): a pass's shows and hides each set or clear a bit in
// the row of another player, whose struct each read cold in a crossing.

// playerRef is what the views of players read of one player: its place in
// the player grid (kept with it: placePlayer, syncAccepted,
// removePlayerGrid), its show's rev, and its own view's cut.
type playerRef struct {
	pos    grid.Vec   // the stream center, as in the grid
	cut    float32    // the rank within which its view wants a player (players_hold.go)
	rev    uint32     // its show's rev
	label  int32      // the slot + 1 of the label on it when it has one; 0 when none or several (label_pass.go)
	scope  grid.Scope // the scope of the grid it is in
	inGrid bool
}

// ref returns player id's entry, the table grown to hold it.
func (w *World) ref(id uint16) *playerRef {
	b := &w.ents.views
	if int(id) >= len(b.refs) {
		b.refs = append(b.refs, make([]playerRef, max(int(id)+1, len(w.players))-len(b.refs))...)
	}
	return &b.refs[id]
}

// posOf returns the stream center of o, player id, as its ref has it: the
// dense table's line rather than o's (not even its id is read). It is
// o's own while o is in the grid (placePlayer and syncAccepted keep it),
// and read from o otherwise.
func (w *World) posOf(id uint16, o *Player) grid.Vec {
	if r := w.ref(id); r.inGrid {
		return r.pos
	}
	return o.pos
}

// idSet is a set of player ids, a bit each.
type idSet []uint64

func (s idSet) has(id uint16) bool { return int(id>>6) < len(s) && s[id>>6]&(1<<(id&63)) != 0 }

func (s idSet) del(id uint16) {
	if int(id>>6) < len(s) {
		s[id>>6] &^= 1 << (id & 63)
	}
}

func (s *idSet) add(id uint16) {
	if n := int(id>>6) + 1; n > len(*s) {
		*s = append(*s, make([]uint64, n-len(*s))...)
	}
	(*s)[id>>6] |= 1 << (id & 63)
}

// heldBy returns player id's row of the held table: the viewers whose view
// of players wants it (shown, or left to show), a bit by viewer id, kept
// by setWants and cleared when the player leaves (playerLeft). The table
// has a row of a bit per player slot for each slot, made at the first
// call; an id past the slots (not reached: ids are slots) gets an empty
// row of its own, not kept.
func (w *World) heldBy(id uint16) idSet {
	b := &w.ents.views
	n := len(w.players)
	stride := (n + 63) / 64
	if b.held == nil {
		b.held = make([]uint64, n*stride)
	}
	if int(id) >= n {
		return make(idSet, stride)
	}
	i := int(id) * stride
	return idSet(b.held[i : i+stride : i+stride])
}

// set adds id to s, which holds it (a held row: never grown).
func (s idSet) set(id uint16) {
	if int(id>>6) < len(s) {
		s[id>>6] |= 1 << (id & 63)
	}
}
