package lane

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"dlmp/internal/wire"
)

// NextTimeout returns when Poll has something to do: the time of the last
// Poll when something is ready now, the earliest retransmission deadline
// otherwise, and the zero time when nothing is in flight or the link is
// dead.
func (s *Sender) NextTimeout() time.Time {
	if s.dead != nil {
		return time.Time{}
	}
	if s.sendable() {
		return s.lastNow
	}
	var t time.Time
	for id := s.base; id != s.next; id++ {
		sl := s.flight[id&s.mask]
		if sl.acked {
			continue
		}
		if sl.due {
			return s.lastNow
		}
		if t.IsZero() || sl.deadline.Before(t) {
			t = sl.deadline
		}
	}
	return t
}

// Poll sends what is due at now: retransmissions first (fast ones and
// expired timers), then queued messages within the window, packed in
// event_id order into as few datagrams of at most Budget bytes as they fit.
// emit must not keep the datagram: its buffer is reused.
//
// A timer that expires on an event beyond the horizon of the acks (the
// newest cumulative ack + 65, the last id its bitfield can show) is
// re-armed instead: the bitfield cannot say whether it arrived, and the
// retransmissions below it move the horizon within a round trip.
//
// The link is dead when an event's timer expires after MaxTries
// transmissions and no ack has acknowledged anything since its last one: a
// link that still acknowledges other events is lossy, not dead, and keeps
// retrying (the full queue bounds how long a stuck event can hold it).
func (s *Sender) Poll(now time.Time, emit func(datagram []byte)) {
	if s.dead != nil {
		return
	}
	s.lastNow = now
	s.dgram = s.dgram[:0]
	// The window is walked only when a deadline may have passed; the
	// events acks flagged meanwhile are sent from their list: a full window
	// in flight is not walked on every tick.
	switch {
	case !now.Before(s.wake):
		if !s.retransmit(now, emit) {
			return
		}
	case len(s.flagged) > 0:
		s.retransmitFlagged(now, emit)
	}
	s.flagged = s.flagged[:0]
	for s.sendable() {
		sl := s.pending[s.pendHead]
		s.pending[s.pendHead] = nil
		s.pendHead++
		if s.pendHead == len(s.pending) {
			s.pending, s.pendHead = s.pending[:0], 0
		}
		sl.id = s.next
		s.next++
		s.stats.Events++
		binary.LittleEndian.PutUint32(sl.buf[1:5], sl.id)
		if sl.first {
			// The inner message's own event_id is its first fragment's.
			binary.LittleEndian.PutUint32(sl.buf[wire.FragmentHeaderLen+1:], sl.id)
		}
		s.flight[sl.id&s.mask] = sl
		s.transmit(sl, now, emit)
	}
	if len(s.dgram) > 0 {
		s.flush(emit)
	}
}

// retransmit sends the flagged and expired events in flight and notes the
// earliest deadline left; false when the link turned out dead.
//
// A timeout is the link's as well as the event's (RFC 6298 §5.5): the
// first one of a Poll raises the backoff level, so that the events sent
// after it wait as long as the retransmissions before theirs expire, until
// an ack gives a new RTT sample. A client that fell behind by more than
// the RTO otherwise has every event retransmitted, and Karn's rule then
// keeps the RTT from ever learning the lag. And one Poll retransmits at
// most TimeoutBurst expired events, the oldest: the others are re-armed
// with the raised timeout. Those that were lost are flagged by the acks of
// the burst (markLate) within a round trip; those that are only late are
// acknowledged, not sent again.
func (s *Sender) retransmit(now time.Time, emit func([]byte)) bool {
	s.wake = time.Time{}
	burst := 0
	for id := s.base; id != s.next; id++ {
		sl := s.flight[id&s.mask]
		if sl.acked {
			continue
		}
		switch {
		case sl.due:
			s.stats.FastRetransmits++
			s.transmit(sl, now, emit)
		case !now.Before(sl.deadline) && id-s.horizon < 1<<31 && id != s.horizon:
			// Beyond what an ack can show (ack+65): it may well have
			// arrived. Wait for the acks of the retransmissions below it.
			sl.deadline = now.Add(s.timeout(sl.tries))
		case !now.Before(sl.deadline) && burst >= TimeoutBurst:
			// Expired, after the burst: wait for the burst's acks.
			s.stats.Deferred++
			sl.deadline = now.Add(s.timeout(sl.tries))
		case !now.Before(sl.deadline):
			if sl.tries >= s.cfg.MaxTries && !s.progressAt.After(sl.sentAt) {
				s.dead = fmt.Errorf("%w: event %d unacknowledged after %d transmissions over %v",
					ErrDead, id, sl.tries, now.Sub(sl.firstAt).Round(time.Millisecond))
				return false
			}
			if burst == 0 {
				s.level = min(s.level+1, maxLevel)
			}
			burst++
			s.stats.Timeouts++
			s.transmit(sl, now, emit)
		}
		s.wakeBy(sl.deadline)
	}
	return true
}

// timeout is the retransmission timer of an event transmitted tries times:
// the RTO backed off by its own transmissions or by the link's timeouts
// since the last RTT sample, whichever is more.
func (s *Sender) timeout(tries int) time.Duration {
	return s.rtt.backoff(max(tries, s.level+1))
}

// retransmitFlagged sends the events acks flagged, in id order, when no
// deadline has passed (what retransmit would send then).
func (s *Sender) retransmitFlagged(now time.Time, emit func([]byte)) {
	slices.SortFunc(s.flagged, func(a, b uint32) int { return cmp.Compare(a-s.base, b-s.base) })
	for _, id := range s.flagged {
		if id-s.base >= s.next-s.base {
			continue // acknowledged and out of the window since
		}
		if sl := s.flight[id&s.mask]; sl.id == id && !sl.acked && sl.due {
			s.stats.FastRetransmits++
			s.transmit(sl, now, emit)
		}
	}
}

// wakeBy makes the next Poll at or after t look at the window.
func (s *Sender) wakeBy(t time.Time) {
	if s.wake.IsZero() || t.Before(s.wake) {
		s.wake = t
	}
}

func (s *Sender) transmit(sl *slot, now time.Time, emit func([]byte)) {
	if len(s.dgram)+len(sl.buf) > s.cfg.Budget {
		s.flush(emit)
	}
	s.dgram = append(s.dgram, sl.buf...)
	sl.dg = s.dgSeq
	sl.tries++
	if sl.tries == 1 {
		sl.firstAt, sl.firstDg = now, s.dgSeq
	} else {
		s.stats.Retransmits++
	}
	s.stats.Sends++
	sl.sentAt = now
	sl.deadline = now.Add(s.timeout(sl.tries))
	sl.sentHigh = s.next - 1
	sl.due = false
	s.wakeBy(sl.deadline)
}

func (s *Sender) flush(emit func([]byte)) {
	s.stats.Datagrams++
	s.stats.Bytes += len(s.dgram)
	emit(s.dgram)
	s.dgram = s.dgram[:0]
	s.dgSeq++
}
