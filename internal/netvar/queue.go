package netvar

import (
	"slices"
	"strings"
)

// NameSet is an immutable set of var names. A stored set is shared by
// reference between every (player, entity) pair it was queued for, so it
// is never widened in place: MergeQueueEntry builds a new one.
type NameSet struct{ names []string } // sorted, unique

// NewNameSet returns the set of names.
func NewNameSet(names ...string) *NameSet {
	ns := slices.Clone(names)
	slices.Sort(ns)
	return &NameSet{names: slices.Compact(ns)}
}

// Has reports whether name is in the set.
func (s *NameSet) Has(name string) bool {
	_, ok := slices.BinarySearch(s.names, name)
	return ok
}

// Len returns the number of names.
func (s *NameSet) Len() int { return len(s.names) }

func (s *NameSet) String() string { return "{" + strings.Join(s.names, ",") + "}" }

// union returns a new set, or one of the two when it already holds both.
func (s *NameSet) union(o *NameSet) *NameSet {
	if s == o {
		return s
	}
	out := make([]string, 0, len(s.names)+len(o.names))
	i, j := 0, 0
	for i < len(s.names) && j < len(o.names) {
		switch a, b := s.names[i], o.names[j]; {
		case a < b:
			out = append(out, a)
			i++
		case a > b:
			out = append(out, b)
			j++
		default:
			out = append(out, a)
			i++
			j++
		}
	}
	out = append(append(out, s.names[i:]...), o.names[j:]...)
	switch len(out) {
	case len(s.names):
		return s
	case len(o.names):
		return o
	}
	return &NameSet{names: out}
}

type entryKind uint8

const (
	entryNone      entryKind = iota // nothing queued
	entryNames                      // a set of names, revokes
	entryBootstrap                  // every var, no revokes (the spec's false)
	entryAll                        // every var, revokes (the spec's true)
)

// QueueEntry is what a resync queue holds for one entity: which vars to
// resync and whether a Filter()ed var the player fails is revoked.
// "Only these names, and no revokes" is deliberately unrepresentable.
type QueueEntry struct {
	kind  entryKind
	names *NameSet
}

// The two whole-entity entries: the spec's true and false.
var (
	QueueAll       = QueueEntry{kind: entryAll}
	QueueBootstrap = QueueEntry{kind: entryBootstrap}
)

// QueueNames is the entry covering only the vars of ns, with revokes.
func QueueNames(ns *NameSet) QueueEntry {
	if ns == nil || ns.Len() == 0 {
		return QueueEntry{}
	}
	return QueueEntry{kind: entryNames, names: ns}
}

// IsZero reports whether nothing is queued.
func (e QueueEntry) IsZero() bool { return e.kind == entryNone }

// Revokes reports whether a failed Filter sends the default or nil.
func (e QueueEntry) Revokes() bool { return e.kind == entryAll || e.kind == entryNames }

// Covers reports whether the entry resyncs the var called name.
func (e QueueEntry) Covers(name string) bool {
	switch e.kind {
	case entryAll, entryBootstrap:
		return true
	case entryNames:
		return e.names.Has(name)
	}
	return false
}

// Names returns the name set of a narrowed entry, nil otherwise.
func (e QueueEntry) Names() *NameSet { return e.names }

func (e QueueEntry) String() string {
	switch e.kind {
	case entryAll:
		return "true"
	case entryBootstrap:
		return "false"
	case entryNames:
		return e.names.String()
	}
	return "none"
}

// MergeQueueEntry combines an incoming entry with the queued one, keeping
// the broader of the two on both axes (vars covered, revokes): true absorbs
// everything, name sets union into a new set, false with names is true.
// The merge is monotonic, commutative and associative, so no ordering of
// requests narrows an entry.
func MergeQueueEntry(old, in QueueEntry) QueueEntry {
	switch {
	case old.kind == entryNone:
		return in
	case in.kind == entryNone:
		return old
	case old.kind == entryAll || in.kind == entryAll:
		return QueueAll
	case old.kind == entryBootstrap && in.kind == entryBootstrap:
		return QueueBootstrap
	case old.kind == entryNames && in.kind == entryNames:
		return QueueEntry{kind: entryNames, names: old.names.union(in.names)}
	}
	return QueueAll // false with names
}

// queued is one entity's place in a player's FIFO: its ref and what is
// queued for it; a zero entry is a purged place, skipped when popped.
type queued struct {
	ref Ref
	e   QueueEntry
}

// playerQueue is one player's queue: at most one entry per entity, served
// in the order entities were first queued. An entity's place in order is
// found by a dense index for player refs (a player's view changes by
// players, the crowd's requests) and by a small map for the other kinds.
type playerQueue struct {
	order  []queued // FIFO from head; places before head are served
	head   int
	byID   []int32       // player ref id -> place in order + 1, 0 = not queued
	whole  []uint64      // bit per player ref id whose entry is QueueAll
	others map[Ref]int32 // the same for vehicle and object refs
	n      int           // live entries
}

// place returns where ent sits in order + 1, 0 when it is not queued.
func (q *playerQueue) place(ent Ref) int32 {
	if ent.Kind == KindPlayer {
		if int(ent.ID) < len(q.byID) {
			return q.byID[ent.ID]
		}
		return 0
	}
	return q.others[ent]
}

func (q *playerQueue) setPlace(ent Ref, at int32) {
	if ent.Kind == KindPlayer {
		if int(ent.ID) >= len(q.byID) {
			q.byID = append(q.byID, make([]int32, int(ent.ID)+1-len(q.byID))...)
			q.whole = append(q.whole, make([]uint64, len(q.byID)/64+1-len(q.whole))...)
		}
		q.byID[ent.ID] = at
		return
	}
	if at == 0 {
		delete(q.others, ent)
		return
	}
	if q.others == nil {
		q.others = map[Ref]int32{}
	}
	q.others[ent] = at
}

// isWhole reports whether ent is a player ref whose entry is QueueAll,
// which absorbs any merge: the crowd's repeated requests stop here,
// reading a bit instead of the entry.
func (q *playerQueue) isWhole(ent Ref) bool {
	i := int(ent.ID) / 64
	return ent.Kind == KindPlayer && i < len(q.whole) && q.whole[i]&(1<<(ent.ID%64)) != 0
}

// setWhole keeps ent's bit in whole equal to whether its entry is QueueAll.
func (q *playerQueue) setWhole(ent Ref, k entryKind) {
	if ent.Kind != KindPlayer {
		return
	}
	bit := uint64(1) << (ent.ID % 64)
	if k == entryAll {
		q.whole[ent.ID/64] |= bit
	} else {
		q.whole[ent.ID/64] &^= bit
	}
}

// add merges e into ent's entry and reports whether the queue was empty.
func (q *playerQueue) add(ent Ref, e QueueEntry) (wasEmpty bool) {
	if q.isWhole(ent) {
		return false
	}
	if at := q.place(ent); at != 0 {
		slot := &q.order[at-1]
		slot.e = MergeQueueEntry(slot.e, e)
		q.setWhole(ent, slot.e.kind)
		return false
	}
	q.order = append(q.order, queued{ent, e})
	q.setPlace(ent, int32(len(q.order)))
	q.setWhole(ent, e.kind)
	q.n++
	return q.n == 1
}

// remove purges ent's entry, leaving a hole in order.
func (q *playerQueue) remove(ent Ref) bool {
	at := q.place(ent)
	if at == 0 {
		return false
	}
	q.take(int(at) - 1)
	return true
}

// take empties the place i of order and returns what it held.
func (q *playerQueue) take(i int) queued {
	s := q.order[i]
	q.order[i].e = QueueEntry{}
	q.setPlace(s.ref, 0)
	q.setWhole(s.ref, entryNone)
	q.n--
	return s
}

// pop returns the oldest entry, skipping holes.
func (q *playerQueue) pop() (queued, bool) {
	for q.head < len(q.order) {
		i := q.head
		q.head++
		if !q.order[i].e.IsZero() {
			return q.take(i), true
		}
	}
	return queued{}, false
}

// compact drops the served places and holes once they outweigh the
// live entries, renumbering the index.
func (q *playerQueue) compact() {
	if q.n == 0 {
		clear(q.order)
		q.order, q.head = q.order[:0], 0
		return
	}
	if q.head < 64 && len(q.order) <= 2*q.n+64 {
		return
	}
	live := q.order[:0]
	for _, s := range q.order[q.head:] {
		if !s.e.IsZero() {
			live = append(live, s)
			q.setPlace(s.ref, int32(len(live)))
		}
	}
	clear(q.order[len(live):])
	q.order, q.head = live, 0
}

// Queues are the per-player resync queues and the round-robin drain.
// Owned by the world goroutine.
type Queues struct {
	players []*playerQueue // by id; nil for a player never queued or removed
	ring    []PlayerID     // sorted ids of players with a non-empty queue
	cursor  PlayerID       // the last player served
	scratch []PlayerID
}

// NewQueues returns empty queues.
func NewQueues() *Queues { return &Queues{} }

func (qs *Queues) queue(p PlayerID) *playerQueue {
	if int(p) < len(qs.players) {
		return qs.players[p]
	}
	return nil
}

// Add merges e into p's entry for ent.
func (qs *Queues) Add(p PlayerID, ent Ref, e QueueEntry) {
	if e.IsZero() {
		return
	}
	q := qs.queue(p)
	if q == nil {
		if int(p) >= len(qs.players) {
			qs.players = append(qs.players, make([]*playerQueue, int(p)+1-len(qs.players))...)
		}
		q = &playerQueue{}
		qs.players[p] = q
	}
	if q.add(ent, e) {
		if i, found := slices.BinarySearch(qs.ring, p); !found {
			qs.ring = slices.Insert(qs.ring, i, p)
		}
	}
}

// Entry returns what is queued for p and ent.
func (qs *Queues) Entry(p PlayerID, ent Ref) QueueEntry {
	if q := qs.queue(p); q != nil {
		if at := q.place(ent); at != 0 {
			return q.order[at-1].e
		}
	}
	return QueueEntry{}
}

// Depth returns the number of entities queued for p, how many of those
// entries are narrowed to names, and how many are bootstrap entries (a
// walk of the queue: the diagnostics' call, not the tick's).
func (qs *Queues) Depth(p PlayerID) (total, narrowed, bootstrap int) {
	q := qs.queue(p)
	if q == nil {
		return 0, 0, 0
	}
	for _, s := range q.order[q.head:] { // holes are entryNone
		switch s.e.kind {
		case entryNames:
			narrowed++
		case entryBootstrap:
			bootstrap++
		}
	}
	return q.n, narrowed, bootstrap
}

func (qs *Queues) dropFromRing(p PlayerID) {
	if i, found := slices.BinarySearch(qs.ring, p); found {
		qs.ring = slices.Delete(qs.ring, i, i+1)
	}
}

// RemovePlayer purges p's whole queue.
func (qs *Queues) RemovePlayer(p PlayerID) {
	if int(p) < len(qs.players) {
		qs.players[p] = nil
	}
	qs.dropFromRing(p)
}

// RemoveEntity purges ent from every player's queue.
func (qs *Queues) RemoveEntity(ent Ref) {
	for p, q := range qs.players {
		if q == nil || !q.remove(ent) {
			continue
		}
		if q.n == 0 {
			qs.dropFromRing(PlayerID(p))
		}
		q.compact()
	}
}

// Drain serves at most rate entries in total and perPlayer per player,
// round-robin over players from the one after the persistent cursor, and
// calls fn for each, one player's entries consecutively. A player with a
// non-empty queue is served within ceil(players / max(1, rate/perPlayer))
// drains, whatever the others hold.
func (qs *Queues) Drain(rate, perPlayer int, fn func(p PlayerID, ent Ref, e QueueEntry)) int {
	if len(qs.ring) == 0 || rate <= 0 || perPlayer <= 0 {
		return 0
	}
	start, _ := slices.BinarySearch(qs.ring, qs.cursor+1)
	if qs.cursor == ^PlayerID(0) {
		start = 0
	}
	qs.scratch = append(qs.scratch[:0], qs.ring[start:]...)
	qs.scratch = append(qs.scratch, qs.ring[:start]...)
	served := 0
	for _, p := range qs.scratch {
		if served >= rate {
			break
		}
		q := qs.players[p]
		for n := 0; n < perPlayer && served < rate; n++ {
			s, ok := q.pop()
			if !ok {
				break
			}
			served++
			fn(p, s.ref, s.e)
		}
		qs.cursor = p
		if q.n == 0 {
			qs.dropFromRing(p)
		}
		q.compact()
	}
	return served
}
