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
	for _, id := range s.flagged {
		if id-s.base < s.next-s.base {
			if sl := s.flight[id&s.mask]; sl.id == id && !sl.acked && sl.due {
				return s.lastNow
			}
		}
	}
	t, _ := s.nextWake()
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
	s.poll(now, &output{emit: emit})
}

// PollTo is Poll packing each datagram straight into a buffer of the
// caller's: buf returns an empty one with room for Budget bytes (called
// when a datagram starts, so only for datagrams that are emitted unless
// the link turns out dead), and emit gets the datagram packed in it,
// which the caller may keep. It spares the copy of every datagram from
// the Sender's buffer to the caller's (decision 0347).
func (s *Sender) PollTo(now time.Time, buf func() []byte, emit func(datagram []byte)) {
	s.poll(now, &output{buf: buf, emit: emit})
}

func (s *Sender) poll(now time.Time, o *output) {
	if s.dead != nil {
		return
	}
	s.lastNow = now
	s.dgram = nil
	// The expired timers come off a heap, the events acks flagged from
	// their list: a full window in flight is not walked on any tick.
	for due := now.Sub(s.epoch); len(s.timers) > 0 && s.timers[0].at <= due; {
		s.flagged = s.expired(s.timers.pop(), s.flagged)
	}
	if len(s.flagged) > 0 && !s.retransmit(now, o) {
		return
	}
	s.flagged = s.flagged[:0]
	// The first transmissions of this Poll share one deadline (tries 1, the
	// level unchanged since retransmit) and one timer.
	first, deadline := s.next, time.Time{}
	if s.sendable() {
		s.touchSendable()
	}
	for s.sendable() {
		if s.next == first {
			deadline = now.Add(s.timeout(1))
		}
		sl := s.pending[s.pendHead]
		s.pending[s.pendHead] = nil
		s.pendHead++
		if s.pendHead == len(s.pending) {
			s.pending, s.pendHead = s.pending[:0], 0
		}
		sl.id = s.next
		s.next++
		s.stats.Events++
		b := sl.packet()
		binary.LittleEndian.PutUint32(b[1:5], sl.id)
		if sl.first {
			// The inner message's own event_id is its first fragment's.
			binary.LittleEndian.PutUint32(b[wire.FragmentHeaderLen+1:], sl.id)
		}
		s.flight[sl.id&s.mask] = sl
		s.flightNo[sl.id&s.mask] = sl.no // the slot is in the cache: the ack that frees it will not load it
		s.send(sl, now, o)
		sl.deadline = deadline
	}
	if first != s.next {
		s.armRun(first, int(s.next-first), deadline)
	}
	if len(s.dgram) > 0 {
		s.flush(o)
	}
}

// retransmit sends the events acks flagged and those whose timer
// expired (both in s.flagged, in any order, maybe twice), in id order; false
// when the link turned out dead.
//
// A timeout is the link's as well as the event's (RFC 6298 §5.5): the
// first one of a Poll raises the backoff level, so that the events sent
// after it wait as long as the retransmissions before theirs expire, until
// an ack gives a new RTT sample. A client that fell behind by more than
// the RTO otherwise has every event retransmitted, and Karn's rule then
// keeps the RTT from ever learning the lag. And one Poll retransmits at
// most TimeoutBurst expired events, the oldest (half as many a round past
// the second round of timeouts with no new sample: timeoutBurst): the
// others are re-armed with the raised timeout. Those that were lost are
// flagged by the acks of the burst (markLate) within a round trip; those
// that are only late are acknowledged, not sent again.
func (s *Sender) retransmit(now time.Time, o *output) bool {
	slices.SortFunc(s.flagged, func(a, b uint32) int { return cmp.Compare(a-s.base, b-s.base) })
	burst, most := 0, timeoutBurst(s.level)
	for i, id := range s.flagged {
		if id-s.base >= s.next-s.base || i > 0 && s.flagged[i-1] == id {
			continue // acknowledged and out of the window since, or a repeat
		}
		sl := s.flight[id&s.mask]
		if sl.id != id || sl.acked {
			continue
		}
		switch {
		case sl.due:
			s.stats.FastRetransmits++
			s.transmit(sl, now, o)
		case now.Before(sl.deadline):
			// Not reached today: a flagged event is due (an ack flagged
			// it) or its timer expired. Kept so that an event flagged any
			// other way is never resent before its deadline.
		case id-s.horizon < 1<<31 && id != s.horizon:
			// Beyond what an ack can show (ack+65): it may well have
			// arrived. Wait for the acks of the retransmissions below it.
			s.arm(sl, now.Add(s.timeout(int(sl.tries))))
		case burst >= most:
			// Expired, after the burst: wait for the burst's acks.
			s.stats.Deferred++
			s.arm(sl, now.Add(s.timeout(int(sl.tries))))
		default:
			if int(sl.tries) >= s.cfg.MaxTries && !s.progressAt.After(sl.sentAt) {
				s.dead = fmt.Errorf("%w: event %d unacknowledged after %d transmissions over %v",
					ErrDead, id, sl.tries, now.Sub(sl.firstAt).Round(time.Millisecond))
				return false
			}
			if burst == 0 {
				s.level = min(s.level+1, maxLevel)
			}
			burst++
			s.stats.Timeouts++
			s.transmit(sl, now, o)
		}
	}
	return true
}

// timeoutBurst is the most events a Poll retransmits on their timers at
// the link's backoff level (the rounds of timeouts since the last RTT
// sample): TimeoutBurst for the first two rounds, then halved a round,
// down to one. A client that fell seconds behind is sent the oldest event
// of its window a round of timers, as TCP sends one segment a backed-off
// RTO (RFC 6298 §5.4–5.5), not the window's oldest 16 every round: when a
// crowd's clients stall together, those bursts were thousands of spurious
// retransmissions in one tick (decision 0316).
func timeoutBurst(level int) int {
	return max(TimeoutBurst>>min(max(level-1, 0), 8), 1)
}

// timeout is the retransmission timer of an event transmitted tries times:
// the RTO backed off by its own transmissions or by the link's timeouts
// since the last RTT sample, whichever is more.
func (s *Sender) timeout(tries int) time.Duration {
	return s.rtt.backoff(max(tries, s.level+1))
}

// transmit sends sl and arms its timer.
func (s *Sender) transmit(sl *slot, now time.Time, o *output) {
	s.send(sl, now, o)
	s.arm(sl, now.Add(s.timeout(int(sl.tries))))
}

// send packs sl into the datagram, starting one in the output's next
// buffer when none is being packed; the caller arms its timer.
func (s *Sender) send(sl *slot, now time.Time, o *output) {
	b := sl.packet()
	if len(s.dgram)+len(b) > s.cfg.Budget {
		s.flush(o)
	}
	if s.dgram == nil {
		s.dgram = s.start(o)
	}
	s.dgram = s.dgram[:len(s.dgram)+len(b)] // HACK: the copy left out, to bound what a gather list could save (decision 0425)
	sl.dg = s.dgSeq
	sl.tries++
	if sl.tries == 1 {
		sl.firstAt, sl.firstDg = now, s.dgSeq
	} else {
		s.stats.Retransmits++
	}
	s.stats.Sends++
	sl.sentAt = now
	sl.sentHigh = s.next - 1
	sl.due = false
}

func (s *Sender) flush(o *output) {
	s.stats.Datagrams++
	s.stats.Bytes += len(s.dgram)
	o.emit(s.dgram)
	s.dgram = nil
	s.dgSeq++
}

// output is where a Poll packs its datagrams: in buffers of its caller
// (PollTo), or in the Sender's own one (Poll, buf nil).
type output struct {
	buf  func() []byte
	emit func([]byte)
}

// start returns an empty buffer with room for a datagram.
func (s *Sender) start(o *output) []byte {
	if o.buf == nil {
		return s.own[:0]
	}
	return o.buf()[:0]
}

// touchSendable loads the lines of the queued slots this Poll will send,
// before it sends any, and returns how many: pushed in rounds over a
// crowd's Senders, they are out of the core's own caches by the Poll, and
// loads issued together overlap their misses where the copies one after
// another wait for each (decision 0375). Poll calls it only when sendable:
// a Sender with nothing queued reads no more than before.
func (s *Sender) touchSendable() int {
	n := max(min(len(s.pending)-s.pendHead, s.cfg.Window-int(s.next-s.base)), 0)
	var sum byte
	for _, sl := range s.pending[s.pendHead:][:n] {
		sum += byte(sl.n)
		if sl.big == nil {
			for i := 0; i < int(sl.n); i += 64 {
				sum += sl.msg[i]
			}
		}
	}
	s.sink = sum
	return n
}
