package lane

import (
	"math/bits"
	"time"

	"dlmp/internal/wire"
)

// OnAck processes a ClientAck whose token the session checked. An ack of an
// event_id never sent is dropped and counted (BadAcks). Acknowledged events
// free their slots; the highest event_id acknowledged gives an RTT sample
// when it was sent once (Karn). An unacknowledged event is retransmitted at
// the next Poll when three later events are acknowledged since its last
// transmission (fast retransmit), or when the ack shows it missing more
// than 9/8 of the RTT after it was sent.
func (s *Sender) OnAck(a wire.ClientAck, now time.Time) {
	if s.dead != nil {
		return
	}
	top := uint64(a.Ack)
	if a.Above != 0 {
		top = uint64(a.Ack) + 1 + uint64(bits.Len64(a.Above))
	}
	if top >= uint64(s.next) {
		s.stats.BadAcks++
		return
	}
	if h := a.Ack + 65; h-s.horizon < 1<<31 {
		s.horizon = h
	}
	newly := false
	sampled, sentAt := false, time.Duration(0) // an RTT sample: the top event, acknowledged now, sent once
	mark := func(id uint32) {
		if sl := s.flight[id&s.mask]; !sl.acked {
			sl.acked, newly = true, true
			s.ackedDg = max(s.ackedDg, s.dgOf(sl.firstDg)+1)
			if uint64(id) == top {
				sampled, sentAt = sl.tries == 1, sl.sentAt
			}
			s.highAcked = max(s.highAcked, id)
		}
	}
	if a.Ack-s.base < s.next-s.base {
		// base..ack, the cumulative part, all acknowledged now (base is
		// unacknowledged): only the last is read (the datagrams of first
		// transmissions grow with the id), and their slots are freed
		// without being touched (decision 0348).
		mark(a.Ack)
		newly = true // base at least, whether or not ack was shown before
		for ; s.base != a.Ack; s.base++ {
			s.release(s.flight[s.base&s.mask], s.flightNo[s.base&s.mask])
			s.flight[s.base&s.mask] = nil
		}
	}
	for above := a.Above; above != 0; above &= above - 1 {
		id := a.Ack + 2 + uint32(bits.TrailingZeros64(above))
		if id-s.base < s.next-s.base {
			mark(id)
		}
	}
	if newly {
		s.progressAt = now
		if sampled {
			s.rtt.sample(now.Sub(s.epoch)-sentAt, time.Duration(a.DelayMs)*time.Millisecond)
			s.level = 0 // a new sample: the RTO is the estimate's again
		}
		for s.base != s.next && s.flight[s.base&s.mask].acked {
			s.release(s.flight[s.base&s.mask], s.flightNo[s.base&s.mask])
			s.flight[s.base&s.mask] = nil
			s.base++
		}
		s.markFast()
	}
	if a.Ack == s.lastAck {
		s.dupAcks++
	} else {
		s.lastAck, s.dupAcks = a.Ack, 0
	}
	s.markLate(a.Ack, now)
	s.markShared()
}

// markLate flags for retransmission every unacknowledged event that the
// ack shows missing (up to ack+65, the last id its bitfield covers), that
// was last sent in a datagram before one the client acknowledged an event
// of, and more than the loss delay ago: had it arrived, the ack would say
// so (the time threshold of RFC 9002 §6.1.2, applied to the holes the
// bitfield reports). An event sent after everything acknowledged is not a
// hole but not yet read: a client that fell behind acknowledges the oldest
// datagrams of its backlog, and its acks show the rest missing. An
// acknowledged event counts by the datagram of its first transmission, the
// one its ack may be for (Karn). After DupAcks acks in a row that repeat
// the cumulative ack (the client receives, and its stream is stuck at
// ack+1: what it receives may be beyond what the bitfield shows), every
// late event the bitfield shows missing is flagged.
func (s *Sender) markLate(ack uint32, now time.Time) {
	end := min(uint64(ack)+66, uint64(s.next))
	delay := s.rtt.lossDelay()
	stuck := s.dupAcks >= DupAcks
	cut := now.Add(-delay).Sub(s.epoch) // sent at or before it: late enough
	for id := s.base; uint64(id) < end; id++ {
		sl := s.flight[id&s.mask]
		// Ids go out in order, in datagrams of growing numbers, at Polls of
		// a clock that does not go back: an event first sent after every
		// datagram an ack reached, or after the cut, was sent again (if at
		// all) later still, and so was every later id. No hole is left.
		if !stuck && s.dgOf(sl.firstDg) >= s.ackedDg || sl.firstAt > cut {
			break
		}
		if !sl.acked && !sl.due && (s.dgOf(sl.dg) < s.ackedDg || stuck) && sl.sentAt <= cut {
			s.flag(sl, id)
		}
	}
}

// markShared extends the retransmissions to their datagrams: an event
// sent in the same datagram as one declared lost was lost with it, even
// beyond what the bitfield shows (two lost datagrams of a burst hide the
// second one's tail from the ack).
func (s *Sender) markShared() {
	if len(s.flagged) == 0 {
		return // nothing is flagged: every flagged event is in the list until Poll sends it
	}
	lost, found := uint32(0), false
	for id := s.base; id != s.next; id++ {
		sl := s.flight[id&s.mask]
		switch {
		case sl.acked:
		case sl.due:
			lost, found = sl.dg, true
		case found && sl.dg == lost:
			s.flag(sl, id)
		}
	}
}

// markFast flags for retransmission every unacknowledged event below the
// highest acknowledged one that has at least three acknowledged events
// sent after its own last transmission.
func (s *Sender) markFast() {
	if s.highAcked < s.base {
		return
	}
	n := int(s.highAcked - s.base + 1)
	suf := s.suffix[:n+1] // suf[i]: acked ids among base+i..highAcked
	suf[n] = 0
	for i := n - 1; i >= 0; i-- {
		suf[i] = suf[i+1]
		if s.flight[(s.base+uint32(i))&s.mask].acked {
			suf[i]++
		}
	}
	for i := 0; i < n-1; i++ {
		sl := s.flight[(s.base+uint32(i))&s.mask]
		if sl.acked || sl.due || sl.sentHigh >= s.highAcked {
			continue
		}
		if suf[int(sl.sentHigh-s.base)+1] >= 3 {
			s.flag(sl, s.base+uint32(i))
		}
	}
}

// flag marks the event in flight with id for retransmission at the next
// Poll, which sends the flagged events without walking the window.
func (s *Sender) flag(sl *slot, id uint32) {
	sl.due = true
	s.flagged = append(s.flagged, id)
}
