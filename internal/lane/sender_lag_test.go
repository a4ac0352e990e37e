package lane

import (
	"slices"
	"testing"
	"time"
)

// TestSenderTimeoutBurst: when the timers of a full window expire together
// (a client that stopped reading), one Poll retransmits the oldest
// TimeoutBurst events and re-arms the others; the acks of the burst then
// flag what they show missing.
func TestSenderTimeoutBurst(t *testing.T) {
	s := NewSender(SenderConfig{})
	for i := range 100 {
		_ = s.Push(message(0x21, 9, uint32(i)), Critical)
	}
	rto := s.RTO()
	poll(s, t0)
	at := t0.Add(rto)
	got := ids(t, poll(s, at), 9)
	want := make([]uint32, TimeoutBurst)
	for i := range want {
		want[i] = uint32(i + 1)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("at the timeout: sent %v, want the oldest %d: %v", got, TimeoutBurst, want)
	}
	// 66..100 are beyond what an ack can show (re-armed, not deferred).
	if st := s.Stats(); st.Timeouts != TimeoutBurst || st.Deferred != 65-TimeoutBurst {
		t.Errorf("got %d timeouts and %d deferred, want %d and %d", st.Timeouts, st.Deferred, TimeoutBurst, 65-TimeoutBurst)
	}
	// The burst's ack shows 17.. missing, sent long enough ago: flagged,
	// sent at the next Poll without waiting for their timers.
	s.OnAck(ackOf(TimeoutBurst), at.Add(ms(5)))
	got = ids(t, poll(s, at.Add(ms(6))), 9)
	if len(got) == 0 || got[0] != TimeoutBurst+1 {
		t.Fatalf("after the burst's ack: sent %v, want the holes from %d", got, TimeoutBurst+1)
	}
}

// TestSenderLinkBackoff: an event sent after a timeout waits for the
// backed-off timeout, not the RTO (RFC 6298 §5.5), until an ack gives a
// new RTT sample.
func TestSenderLinkBackoff(t *testing.T) {
	s := NewSender(SenderConfig{})
	_ = s.Push(message(0x21, 9, 0), Critical)
	rto := s.RTO()
	poll(s, t0)
	at := t0.Add(rto)
	poll(s, at) // event 1 times out: the link backs off
	_ = s.Push(message(0x21, 9, 1), Critical)
	sent := at.Add(ms(1))
	poll(s, sent) // event 2, sent once
	backed := rto + rto/2
	if got := s.NextTimeout(); !got.Equal(at.Add(backed)) {
		t.Fatalf("NextTimeout() = t+%v after event 1's retransmission, want t+%v", got.Sub(at), backed)
	}
	if got := ids(t, poll(s, sent.Add(rto)), 9); len(got) != 0 {
		t.Fatalf("event 2 at its own RTO after a timeout: sent %v, want nothing", got)
	}
	// Event 2's ack (sent once) is a sample: the level goes back to 0.
	s.OnAck(ackOf(2), sent.Add(ms(20)))
	_ = s.Push(message(0x21, 9, 2), Critical)
	now := sent.Add(ms(30))
	poll(s, now)
	if got, want := s.NextTimeout(), now.Add(s.RTO()); !got.Equal(want) {
		t.Errorf("after a sample: NextTimeout() = now+%v, want now+%v (the RTO)", got.Sub(now), s.RTO())
	}
}

// TestSenderLaggingClient: a client that reads its datagrams 1 s late
// (its socket's backlog: nothing is lost) and acks what it read. Every
// retransmission is spurious. Before the link's backoff and the timeout
// burst, the timers of events sent with the RTO of a quick link expired
// before their acks, the retransmitted events gave no RTT samples (Karn),
// and about every event was sent twice or more.
func TestSenderLaggingClient(t *testing.T) {
	const lag = time.Second
	s := NewSender(SenderConfig{})
	r := NewReceiver(0, DefaultWindow)
	type inflight struct {
		at time.Time
		d  []byte
	}
	var wire []inflight
	now := t0
	// 10 s at 20 ticks per second, 10 events per tick; the client gets
	// quick for the first second, then lags.
	for tick := range 200 {
		now = now.Add(50 * time.Millisecond)
		for i := range 10 {
			if err := s.Push(message(0x21, 40, uint32(tick*10+i)), Critical); err != nil {
				t.Fatalf("tick %d: %v", tick, err)
			}
		}
		delay := lag
		if tick < 20 {
			delay = 10 * time.Millisecond
		}
		s.Poll(now, func(d []byte) { wire = append(wire, inflight{now.Add(delay), append([]byte(nil), d...)}) })
		for len(wire) > 0 && !wire[0].at.After(now) {
			d := wire[0].d
			wire = wire[1:]
			for _, p := range split(t, d, 40) {
				if err := r.Offer(p, now, func([]byte) {}); err != nil {
					t.Fatal(err)
				}
			}
		}
		if r.AckDue() {
			s.OnAck(r.Ack(now), now)
		}
	}
	st := s.Stats()
	if st.Events < 1900 {
		t.Fatalf("got %d events sent, want about 2000", st.Events)
	}
	if st.Retransmits*10 > st.Events {
		t.Errorf("got %d retransmissions of %d events to a client that lost nothing, want at most 10 %%", st.Retransmits, st.Events)
	}
	t.Logf("events %d, retransmits %d (timeouts %d, fast %d, deferred %d), SRTT %v", st.Events, st.Retransmits, st.Timeouts, st.FastRetransmits, st.Deferred, s.SRTT())
}
