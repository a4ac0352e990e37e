package lane

import (
	"slices"
	"testing"
	"time"

	"dlmp/internal/wire"
)

// TestSenderStaleTimerIgnored: a fast retransmission re-arms the event's
// timer later; its first timer, left in the heap, comes up at the first
// deadline and must not retransmit it again, nor an event acknowledged
// since.
func TestSenderStaleTimerIgnored(t *testing.T) {
	s := NewSender(SenderConfig{})
	rto := s.RTO()
	for i := range 6 { // one datagram each: 1..6, timers at t0+i ms+rto
		_ = s.Push(message(0x21, 9, uint32(i)), Critical)
		poll(s, t0.Add(ms(i)))
	}
	// 1 missing, 6 in flight; the ack comes late, so that its RTT sample
	// puts 1's new timer well after its first one.
	late := t0.Add(rto - ms(20))
	s.OnAck(ackOf(0, 2, 3, 4, 5), late)
	if got, want := ids(t, poll(s, late), 9), []uint32{1}; !slices.Equal(got, want) {
		t.Fatalf("three later acks: retransmitted %v, want %v", got, want)
	}
	if got, want := s.NextTimeout(), t0.Add(ms(5)+rto); !got.Equal(want) {
		t.Fatalf("got NextTimeout t0+%v, want t0+%v: 6's deadline, not 1's first", got.Sub(t0), want.Sub(t0))
	}
	// Past 6's deadline only 6 is due: 1's first timer is stale, 2..5 are
	// acknowledged.
	if got, want := ids(t, poll(s, t0.Add(rto+ms(5))), 9), []uint32{6}; !slices.Equal(got, want) {
		t.Fatalf("at the first deadlines: retransmitted %v, want %v", got, want)
	}
	if got := s.Stats().Timeouts; got != 1 {
		t.Errorf("got %d timeouts, want 1", got)
	}
}

// TestSenderTimersBounded: the timers of acknowledged or re-armed events
// do not pile up: over a long run to a lagging client, the heap holds at
// most twice the events in flight and 64 more.
func TestSenderTimersBounded(t *testing.T) {
	s := NewSender(SenderConfig{})
	now := t0
	var acked uint32
	for tick := range 3000 {
		now = now.Add(ms(50))
		for range 4 {
			if err := s.Push(message(0x21, 40, 0), Critical); err != nil {
				t.Fatal(err)
			}
		}
		if tick > 60 {
			acked += 4
			s.OnAck(wire.ClientAck{Ack: acked}, now)
		}
		if tick%7 == 0 && tick > 60 { // a hole now and then: fast retransmissions
			s.OnAck(ackOf(acked, acked+2, acked+3, acked+4), now)
		}
		poll(s, now)
		if err := s.Dead(); err != nil {
			t.Fatal(err)
		}
		if max := 2*s.InFlight() + 64 + 1; len(s.timers) > max {
			t.Fatalf("tick %d: %d timers for %d events in flight, want at most %d", tick, len(s.timers), s.InFlight(), max)
		}
	}
	if st := s.Stats(); st.FastRetransmits == 0 {
		t.Errorf("got no fast retransmissions (stats %+v): the holes are not exercised", st)
	}
	// One event re-armed again and again (deferred, beyond the horizon):
	// each arm leaves the one before stale, far in the future.
	s = NewSender(SenderConfig{})
	_ = s.Push(message(0x21, 9, 0), Critical)
	poll(s, t0)
	sl := s.flight[1&s.mask]
	for i := range 1000 {
		s.arm(sl, t0.Add(time.Hour+ms(i)))
	}
	if max := 2*s.InFlight() + 64 + 1; len(s.timers) > max {
		t.Fatalf("got %d timers for one event re-armed 1000 times, want at most %d", len(s.timers), max)
	}
	if got, want := s.NextTimeout(), t0.Add(time.Hour+ms(999)); !got.Equal(want) {
		t.Errorf("got NextTimeout t0+%v, want the last arm's t0+%v", got.Sub(t0), want.Sub(t0))
	}
}

// TestSenderTimerRun: a Poll's first transmissions share one timer (one
// heap entry, not one an event), and when it comes up it retransmits each
// of its events whose deadline it still is: not those acknowledged, not
// one retransmitted (and re-armed) since.
func TestSenderTimerRun(t *testing.T) {
	s := NewSender(SenderConfig{})
	for i := range 16 { // a datagram each
		_ = s.Push(message(bigID, wire.MaxDatagram, uint32(i)), Critical)
	}
	if got := len(poll(s, t0)); got != 16 {
		t.Fatalf("got %d datagrams, want 16", got)
	}
	if got := len(s.timers); got != 1 {
		t.Fatalf("got %d timers after one Poll's first transmissions, want 1", got)
	}
	deadline := s.NextTimeout()
	// 1..4 and 6..8 acknowledged: 5 is fast-retransmitted, re-armed past
	// the run's deadline.
	late := deadline.Add(-ms(5))
	s.OnAck(ackOf(4, 6, 7, 8), late)
	if got, want := ids(t, poll(s, late), wire.MaxDatagram), []uint32{5}; !slices.Equal(got, want) {
		t.Fatalf("three later acks: retransmitted %v, want %v", got, want)
	}
	want := []uint32{9, 10, 11, 12, 13, 14, 15, 16}
	if got := ids(t, poll(s, deadline), wire.MaxDatagram); !slices.Equal(got, want) {
		t.Fatalf("at the run's deadline: retransmitted %v, want %v", got, want)
	}
	if got := s.Stats().Timeouts; got != len(want) {
		t.Errorf("got %d timeouts, want %d", got, len(want))
	}
}
