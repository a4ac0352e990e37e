package netvar

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// modelQueues is the resync queues written as plainly as possible: per
// player a slice in the order entities were first queued, searched
// linearly. TestQueuesMatchModel drives Queues and it with the same
// random operations.
type modelQueues struct {
	q      map[PlayerID][]queued
	cursor PlayerID
}

func (m *modelQueues) find(p PlayerID, ent Ref) int {
	return slices.IndexFunc(m.q[p], func(s queued) bool { return s.ref == ent })
}

func (m *modelQueues) Add(p PlayerID, ent Ref, e QueueEntry) {
	if e.IsZero() {
		return
	}
	if i := m.find(p, ent); i >= 0 {
		m.q[p][i].e = MergeQueueEntry(m.q[p][i].e, e)
		return
	}
	m.q[p] = append(m.q[p], queued{ent, e})
}

func (m *modelQueues) RemoveEntity(ent Ref) {
	for p := range m.q {
		if i := m.find(p, ent); i >= 0 {
			m.q[p] = slices.Delete(m.q[p], i, i+1)
		}
	}
}

func (m *modelQueues) RemovePlayer(p PlayerID) { delete(m.q, p) }

func (m *modelQueues) Depth(p PlayerID) (total, narrowed, bootstrap int) {
	for _, s := range m.q[p] {
		switch s.e.kind {
		case entryNames:
			narrowed++
		case entryBootstrap:
			bootstrap++
		}
	}
	return len(m.q[p]), narrowed, bootstrap
}

func (m *modelQueues) Drain(rate, perPlayer int, fn func(PlayerID, Ref, QueueEntry)) int {
	var after, before []PlayerID
	for p, q := range m.q {
		switch {
		case len(q) == 0:
		case p > m.cursor:
			after = append(after, p)
		default:
			before = append(before, p)
		}
	}
	slices.Sort(after)
	slices.Sort(before)
	served := 0
	for _, p := range append(after, before...) {
		if served >= rate || rate <= 0 || perPlayer <= 0 {
			break
		}
		for n := 0; n < perPlayer && served < rate && len(m.q[p]) > 0; n++ {
			s := m.q[p][0]
			m.q[p] = m.q[p][1:]
			served++
			fn(p, s.ref, s.e)
		}
		m.cursor = p
	}
	return served
}

type served struct {
	p   PlayerID
	ent Ref
	e   string
}

// TestQueuesMatchModel: random adds (every entry shape, player refs past
// the dense index's end included), purges and drains give Queues and the
// model the same entries, depths and drain order (FIFO of first queueing,
// round-robin from the persistent cursor), across the compactions that
// long runs trigger.
func TestQueuesMatchModel(t *testing.T) {
	players := []PlayerID{0, 1, 2, 3, 7, 300}
	refs := []Ref{{KindPlayer, 0}, {KindPlayer, 1}, {KindPlayer, 5}, {KindPlayer, 999}, {KindVehicle, 1}, {KindVehicle, 5}, {KindObject, 1}}
	for i := range uint16(150) {
		refs = append(refs, Ref{KindPlayer, 10 + i}, Ref{KindObject, 10 + i})
	}
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 11))
		qs, m := NewQueues(), &modelQueues{q: map[PlayerID][]queued{}}
		for step := range 3000 {
			var op string
			switch r := rng.IntN(100); {
			case r < 65:
				p, ent, e := players[rng.IntN(len(players))], refs[rng.IntN(len(refs))], randomEntry(rng)
				op = fmt.Sprintf("Add(%d, %v, %v)", p, ent, e)
				qs.Add(p, ent, e)
				m.Add(p, ent, e)
			case r < 75: // a burst into one queue, deep enough to compact
				p := players[rng.IntN(len(players))]
				op = fmt.Sprintf("burst(%d)", p)
				for range 40 {
					ent := refs[rng.IntN(len(refs))]
					qs.Add(p, ent, QueueAll)
					m.Add(p, ent, QueueAll)
				}
			case r < 78:
				ent := refs[rng.IntN(len(refs))]
				op = fmt.Sprintf("RemoveEntity(%v)", ent)
				qs.RemoveEntity(ent)
				m.RemoveEntity(ent)
			case r < 80:
				p := players[rng.IntN(len(players))]
				op = fmt.Sprintf("RemovePlayer(%d)", p)
				qs.RemovePlayer(p)
				m.RemovePlayer(p)
			default:
				rate, per := rng.IntN(40), rng.IntN(20)
				op = fmt.Sprintf("Drain(%d, %d)", rate, per)
				var got, want []served
				n := qs.Drain(rate, per, func(p PlayerID, ent Ref, e QueueEntry) { got = append(got, served{p, ent, e.String()}) })
				wn := m.Drain(rate, per, func(p PlayerID, ent Ref, e QueueEntry) { want = append(want, served{p, ent, e.String()}) })
				if n != wn || !slices.Equal(got, want) {
					t.Fatalf("seed %d step %d %s: served %d %v, want %d %v", seed, step, op, n, got, wn, want)
				}
			}
			for _, p := range players {
				gt, gn, gb := qs.Depth(p)
				wt, wn, wb := m.Depth(p)
				if gt != wt || gn != wn || gb != wb {
					t.Fatalf("seed %d step %d %s: Depth(%d) = %d,%d,%d, want %d,%d,%d", seed, step, op, p, gt, gn, gb, wt, wn, wb)
				}
			}
			// Served places and holes are dropped as they pile up.
			for p, q := range qs.players {
				if q != nil && (q.head >= 64 || len(q.order) > 2*q.n+64) {
					t.Fatalf("seed %d step %d %s: player %d's FIFO holds %d places from %d for %d entries", seed, step, op, p, len(q.order), q.head, q.n)
				}
			}
			for range 8 {
				p, ent := players[rng.IntN(len(players))], refs[rng.IntN(len(refs))]
				want := QueueEntry{}
				if i := m.find(p, ent); i >= 0 {
					want = m.q[p][i].e
				}
				if got := qs.Entry(p, ent); got.kind != want.kind || !sameEntry(got, want) {
					t.Fatalf("seed %d step %d %s: Entry(%d, %v) = %v, want %v", seed, step, op, p, ent, got, want)
				}
				// The QueueAll bits mirror the entries.
				q := qs.queue(p)
				if got, want := q != nil && q.isWhole(ent), ent.Kind == KindPlayer && want.kind == entryAll; got != want {
					t.Fatalf("seed %d step %d %s: player %d's QueueAll bit for %v is %v, want %v", seed, step, op, p, ent, got, want)
				}
			}
		}
	}
}
