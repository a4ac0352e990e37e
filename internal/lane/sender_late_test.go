package lane

import (
	"slices"
	"testing"
	"time"
)

// TestSenderLateHoleAfterRetransmission: markLate stops at the first event
// first sent after every datagram an ack reached or after the loss delay,
// not at the first whose latest transmission is: an event retransmitted
// since (1, on its timer) does not hide a hole after it (2, sent before
// the acknowledged 3).
func TestSenderLateHoleAfterRetransmission(t *testing.T) {
	s := NewSender(SenderConfig{})
	rto := s.RTO()
	for i, at := range []time.Duration{0, ms(40), ms(41)} { // one datagram each
		_ = s.Push(message(0x21, 9, uint32(i)), Critical)
		poll(s, t0.Add(at))
	}
	if got, want := ids(t, poll(s, t0.Add(rto)), 9), []uint32{1}; !slices.Equal(got, want) {
		t.Fatalf("at 1's deadline: retransmitted %v, want %v", got, want)
	}
	now := t0.Add(rto + ms(5))
	a := ackOf(0, 3)
	// A 10 ms sample: the loss delay (11.25 ms) is past 1's retransmission
	// and far from 2's only transmission.
	a.DelayMs = uint16((now.Sub(t0.Add(ms(41))) - ms(10)) / time.Millisecond)
	s.OnAck(a, now)
	if got, want := ids(t, poll(s, now), 9), []uint32{2}; !slices.Equal(got, want) {
		t.Fatalf("after the ack of 3: retransmitted %v, want %v (the hole before it)", got, want)
	}
}
