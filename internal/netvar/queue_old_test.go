package netvar

import "slices"

// This file keeps the queue structure of before session 6 (a map of
// players, each a map of entries plus a FIFO of refs) as the baseline the
// crowd benchmark measures side by side with Queues.

// oldPlayerQueue is one player's queue: at most one entry per entity, served
// in the order entities were first queued.
type oldPlayerQueue struct {
	ents  map[Ref]QueueEntry
	order []Ref // FIFO; may hold refs no longer in ents, skipped when popped
	head  int
}

func (q *oldPlayerQueue) compact() {
	if q.head < 64 && len(q.order) <= 2*len(q.ents)+64 {
		return
	}
	live := q.order[:0]
	seen := make(map[Ref]bool, len(q.ents))
	for _, r := range q.order[q.head:] {
		if _, ok := q.ents[r]; ok && !seen[r] {
			seen[r] = true
			live = append(live, r)
		}
	}
	q.order, q.head = live, 0
}

// Queues are the per-player resync queues and the round-robin drain.
// Owned by the world goroutine.
type oldQueues struct {
	players map[PlayerID]*oldPlayerQueue
	ring    []PlayerID // sorted ids of players with a non-empty queue
	cursor  PlayerID   // the last player served
	scratch []PlayerID
}

// newOldQueues returns empty queues.
func newOldQueues() *oldQueues { return &oldQueues{players: map[PlayerID]*oldPlayerQueue{}} }

// Add merges e into p's entry for ent.
func (qs *oldQueues) Add(p PlayerID, ent Ref, e QueueEntry) {
	if e.IsZero() {
		return
	}
	q := qs.players[p]
	if q == nil {
		q = &oldPlayerQueue{ents: map[Ref]QueueEntry{}}
		qs.players[p] = q
	}
	if len(q.ents) == 0 {
		if i, found := slices.BinarySearch(qs.ring, p); !found {
			qs.ring = slices.Insert(qs.ring, i, p)
		}
	}
	old, ok := q.ents[ent]
	q.ents[ent] = MergeQueueEntry(old, e)
	if !ok {
		q.order = append(q.order, ent)
	}
}

// Entry returns what is queued for p and ent.
func (qs *oldQueues) Entry(p PlayerID, ent Ref) QueueEntry {
	if q := qs.players[p]; q != nil {
		return q.ents[ent]
	}
	return QueueEntry{}
}

// Depth returns the number of entities queued for p, how many of those
// entries are narrowed to names, and how many are bootstrap entries.
func (qs *oldQueues) Depth(p PlayerID) (total, narrowed, bootstrap int) {
	q := qs.players[p]
	if q == nil {
		return 0, 0, 0
	}
	for _, e := range q.ents {
		switch e.kind {
		case entryNames:
			narrowed++
		case entryBootstrap:
			bootstrap++
		}
	}
	return len(q.ents), narrowed, bootstrap
}

func (qs *oldQueues) dropFromRing(p PlayerID) {
	if i, found := slices.BinarySearch(qs.ring, p); found {
		qs.ring = slices.Delete(qs.ring, i, i+1)
	}
}

// RemovePlayer purges p's whole queue.
func (qs *oldQueues) RemovePlayer(p PlayerID) {
	delete(qs.players, p)
	qs.dropFromRing(p)
}

// RemoveEntity purges ent from every player's queue.
func (qs *oldQueues) RemoveEntity(ent Ref) {
	for p, q := range qs.players {
		if _, ok := q.ents[ent]; !ok {
			continue
		}
		delete(q.ents, ent)
		if len(q.ents) == 0 {
			qs.dropFromRing(p)
		}
		q.compact()
	}
}

// Drain serves at most rate entries in total and perPlayer per player,
// round-robin over players from the one after the persistent cursor, and
// calls fn for each, one player's entries consecutively. A player with a
// non-empty queue is served within ceil(players / max(1, rate/perPlayer))
// drains, whatever the others hold.
func (qs *oldQueues) Drain(rate, perPlayer int, fn func(p PlayerID, ent Ref, e QueueEntry)) int {
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
		for n := 0; n < perPlayer && served < rate && q.head < len(q.order); {
			ent := q.order[q.head]
			q.head++
			e, ok := q.ents[ent]
			if !ok {
				continue
			}
			delete(q.ents, ent)
			n++
			served++
			fn(p, ent, e)
		}
		qs.cursor = p
		if len(q.ents) == 0 {
			q.order, q.head = q.order[:0], 0
			qs.dropFromRing(p)
		} else {
			q.compact()
		}
	}
	return served
}
