package mirror

// shown holds the shown entities of one kind (players, vehicles) by id,
// with the sequence check of their snapshots. One 8-byte slot per id
// holds both the last accepted seq and where the entity is held, so a
// snapshot costs one slot load for the check and the lookup (a map lookup
// and a second array's slot before, decision 0320). The entities are held
// densely, in no order: a hide moves the last one into the hole, and the
// hidden one's copy stays past the end for the next show to reuse (its
// name, when the same player comes back, is not allocated again).
//
// Pointers into items are valid until the next show or hide.
type shown[T any] struct {
	items []T      // the shown entities, in no order
	ids   []uint16 // ids[i] is the id of items[i]
	slots []slot   // by id
}

// slot is one id's entry. The seq survives a hide, so a snapshot delayed
// from before the hide cannot move the entity after a new show; it is
// recorded for a snapshot of an entity not shown too.
type slot struct {
	seq  uint32 // the last accepted snapshot's
	seen bool   // a snapshot was accepted
	at   uint16 // 1 + the index in items; 0 = not shown
}

func newShown[T any](ids int) shown[T] { return shown[T]{slots: make([]slot, ids)} }

// len returns how many entities are shown.
func (s *shown[T]) len() int { return len(s.items) }

// get returns the shown entity id, or nil.
func (s *shown[T]) get(id uint16) *T {
	if int(id) >= len(s.slots) || s.slots[id].at == 0 {
		return nil
	}
	return &s.items[s.slots[id].at-1]
}

// show returns the entity id, shown now if it was not (fresh reports
// that: its value is then the copy a hidden one left, for the caller to
// reset). An id beyond the slots returns nil.
func (s *shown[T]) show(id uint16) (e *T, fresh bool) {
	if int(id) >= len(s.slots) {
		return nil, false
	}
	if at := s.slots[id].at; at != 0 {
		return &s.items[at-1], false
	}
	n := len(s.items)
	if n < cap(s.items) {
		s.items = s.items[:n+1]
	} else {
		var zero T
		s.items = append(s.items, zero)
	}
	s.ids = append(s.ids, id)
	s.slots[id].at = uint16(n + 1)
	return &s.items[n], true
}

// hide hides id and reports whether it was shown.
func (s *shown[T]) hide(id uint16) bool {
	if int(id) >= len(s.slots) || s.slots[id].at == 0 {
		return false
	}
	i, last := int(s.slots[id].at-1), len(s.items)-1
	if i != last { // swap: the hidden one's copy goes past the end
		s.items[i], s.items[last] = s.items[last], s.items[i]
		s.ids[i] = s.ids[last]
		s.slots[s.ids[i]].at = uint16(i + 1)
	}
	s.items, s.ids = s.items[:last], s.ids[:last]
	s.slots[id].at = 0
	return true
}

// Snapshot outcomes of move.
const (
	moveTaken   = iota // newer, of a shown entity: apply it
	moveStale          // not above the last accepted seq of its id
	moveUnshown        // newer (its seq is recorded), of an entity not shown
	moveBeyond         // an id beyond the slots (CheckRecv refuses it first)
)

// move applies the sequence check of a snapshot of id with seq: a seq
// above the last is recorded, shown or not (as the client's own check
// did before decision 0320), so the snapshot counts as fresh for
// OnPacket; it returns the entity to update when id is shown.
func (s *shown[T]) move(id uint16, seq uint32) (*T, int) {
	if int(id) >= len(s.slots) {
		return nil, moveBeyond
	}
	sl := &s.slots[id]
	if sl.seen && seq <= sl.seq {
		return nil, moveStale
	}
	sl.seq, sl.seen = seq, true
	if sl.at == 0 {
		return nil, moveUnshown
	}
	return &s.items[sl.at-1], moveTaken
}

// all calls f with each shown entity, in no order.
func (s *shown[T]) all(f func(e *T)) {
	for i := range s.items {
		f(&s.items[i])
	}
}
