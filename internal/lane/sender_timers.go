package lane

import "time"

// timer is one arming of an event's retransmission timer: the event id and
// the deadline it was given. An event re-armed, retransmitted or
// acknowledged since leaves its older timers stale: they are dropped when
// they come up (Sender.armed).
type timer struct {
	at time.Duration // the deadline, since the sender's epoch: an integer to compare
	id uint32
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

// arm sets sl's retransmission timer to at. The heap holds at most about
// twice the events in flight: past that it drops its stale timers, which
// costs the events in flight once per as many arms.
func (s *Sender) arm(sl *slot, at time.Time) {
	sl.deadline = at
	if s.epoch.IsZero() {
		s.epoch = at
	}
	s.timers.push(timer{at: at.Sub(s.epoch), id: sl.id})
	if len(s.timers) > 2*int(s.next-s.base)+64 {
		s.compactTimers()
	}
}

// armed reports whether t is the current timer of an unacknowledged event
// in flight (and not a stale one).
func (s *Sender) armed(t timer) bool {
	if t.id-s.base >= s.next-s.base {
		return false
	}
	sl := s.flight[t.id&s.mask]
	return sl != nil && sl.id == t.id && !sl.acked && sl.deadline.Sub(s.epoch) == t.at
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
