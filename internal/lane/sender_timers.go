package lane

import "time"

// timer is one arming of the retransmission timers of a run of events: the
// ids id..id+n-1 and the deadline they were given. A Poll's first
// transmissions share one deadline and one timer (decision 0346); a
// retransmission or a re-arm is a run of one. An event re-armed,
// retransmitted or acknowledged since leaves its older timers stale: they
// are dropped when they come up (Sender.armed).
type timer struct {
	at time.Duration // the deadline, since the sender's epoch: an integer to compare
	id uint32        // the run's first event
	n  uint32        // the run's length, ≥ 1
}

// timers is a min-heap of timers by deadline: Poll pops the expired ones
// instead of walking the window to find them, so a deep window (a client
// that fell behind, hundreds of events in flight with deadlines spread
// over as many ticks) costs a Poll the events that expired, not the window.
type timers []timer

func (h *timers) push(t timer) {
	*h = append(*h, t)
	q := *h
	for i := len(q) - 1; i > 0; {
		p := (i - 1) / 2
		if q[i].at >= q[p].at {
			break
		}
		q[i], q[p] = q[p], q[i]
		i = p
	}
}

// pop removes and returns the earliest timer; the heap is not empty.
func (h *timers) pop() timer {
	q := *h
	top := q[0]
	n := len(q) - 1
	q[0] = q[n]
	q[n] = timer{}
	*h = q[:n]
	h.down(0)
	return top
}

// down moves the timer at i down to its place.
func (h timers) down(i int) {
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h[r].at < h[l].at {
			m = r
		}
		if h[m].at >= h[i].at {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// arm sets sl's retransmission timer to at.
func (s *Sender) arm(sl *slot, at time.Time) {
	sl.deadline = s.since(at)
	s.armRun(sl.id, 1, at)
}

// armRun pushes the timer of the events id..id+n-1, whose deadlines the
// caller set to at. The heap holds at most about twice the events in
// flight: past that it drops its stale timers, which costs the events in
// flight once per as many arms.
func (s *Sender) armRun(id uint32, n int, at time.Time) {
	if s.epoch.IsZero() {
		s.epoch = at
	}
	s.timers.push(timer{at: at.Sub(s.epoch), id: id, n: uint32(n)})
	if len(s.timers) > 2*int(s.next-s.base)+64 {
		s.compactTimers()
	}
}

// expired appends to ids those of t's events whose current timer it is.
func (s *Sender) expired(t timer, ids []uint32) []uint32 {
	for id, end := s.runStart(t), t.id+t.n; id != end; id++ {
		if s.armedID(id, t.at) {
			ids = append(ids, id)
		}
	}
	return ids
}

// runStart returns the first id of t's run still in flight: past its end
// when the acks moved the base beyond it, which is how a run usually comes
// up.
func (s *Sender) runStart(t timer) uint32 {
	if off := s.base - t.id; off < 1<<31 { // the base is at or past the run's start
		return t.id + min(off, t.n)
	}
	return t.id
}

// armed reports whether t is the current timer of at least one
// unacknowledged event in flight (and not only a stale one).
func (s *Sender) armed(t timer) bool {
	for id, end := s.runStart(t), t.id+t.n; id != end; id++ {
		if s.armedID(id, t.at) {
			return true
		}
	}
	return false
}

// armedID reports whether at is the current deadline of the unacknowledged
// event id in flight.
func (s *Sender) armedID(id uint32, at time.Duration) bool {
	if id-s.base >= s.next-s.base {
		return false
	}
	sl := s.flight[id&s.mask]
	return sl != nil && sl.id == id && !sl.acked && sl.deadline == at
}

// compactTimers drops the stale timers (fast retransmissions and acks on
// a busy link leave them faster than their deadlines come up) and
// rebuilds the heap.
func (s *Sender) compactTimers() {
	q := s.timers[:0]
	for _, t := range s.timers {
		if s.armed(t) {
			q = append(q, t)
		}
	}
	clear(s.timers[len(q):])
	s.timers = q
	for i := len(q)/2 - 1; i >= 0; i-- {
		q.down(i)
	}
}

// nextWake returns the earliest deadline of an event in flight, dropping
// the stale timers before it; false when no event is armed.
func (s *Sender) nextWake() (time.Time, bool) {
	for len(s.timers) > 0 {
		if t := s.timers[0]; s.armed(t) {
			return s.epoch.Add(t.at), true
		}
		s.timers.pop()
	}
	return time.Time{}, false
}
