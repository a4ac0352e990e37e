package lane

import (
	"encoding/binary"
	"slices"
	"testing"
	"time"
)

// TestSenderBurstBacksOff: on a link that keeps timing out with no new
// RTT sample, each round of timers retransmits half the events of the
// round before, from the second round on, down to one: the oldest. A new
// sample gives the full burst back. Fails with a fixed TimeoutBurst.
func TestSenderBurstBacksOff(t *testing.T) {
	s := NewSender(SenderConfig{})
	for i := range 60 {
		_ = s.Push(message(0x21, 9, uint32(i)), Critical)
	}
	now := t0
	poll(s, now)
	var rounds []int
	for range 7 {
		now = s.NextTimeout()
		got := ids(t, poll(s, now), 9)
		rounds = append(rounds, len(got))
		for i, id := range got {
			if id != uint32(i+1) {
				t.Fatalf("round %d: sent %v, want the oldest from 1", len(rounds), got)
			}
		}
	}
	if want := []int{16, 16, 8, 4, 2, 1, 1}; !slices.Equal(rounds, want) {
		t.Fatalf("got %v events a round of timeouts, want %v", rounds, want)
	}
	// An ack of event 60 (sent once) is a sample: the burst is whole again.
	s.OnAck(ackOf(0, 60), now.Add(ms(10)))
	now = s.NextTimeout()
	if got := ids(t, poll(s, now), 9); len(got) != TimeoutBurst {
		t.Errorf("after a sample: sent %d on the timers, want %d", len(got), TimeoutBurst)
	}
}

// stallRun drives a Sender for 20 s at 20 ticks a second, 10 events a
// tick, to a client that loses nothing but reads its datagrams in order
// with a lag that jumps between 200 ms and 1.5 s every 2 s (a starved
// process: issue 7's bots), acking what it read every tick. It checks that
// every event is delivered once, in order, and returns the sender's stats.
func stallRun(t *testing.T) SenderStats {
	t.Helper()
	s := NewSender(SenderConfig{})
	r := NewReceiver(0, DefaultWindow)
	type inflight struct {
		at time.Time
		d  []byte
	}
	var link []inflight
	var last time.Time // the latest arrival: the client reads in order
	var delivered uint32
	deliver := func(m []byte) {
		if seq := binary.LittleEndian.Uint32(m[5:]); seq != delivered {
			t.Fatalf("delivered message %d, want %d", seq, delivered)
		}
		delivered++
	}
	now := t0
	const ticks = 400
	for tick := range ticks {
		now = now.Add(50 * time.Millisecond)
		for i := range 10 {
			if err := s.Push(message(0x21, 40, uint32(tick*10+i)), Critical); err != nil {
				t.Fatalf("tick %d: %v", tick, err)
			}
		}
		lag := 200 * time.Millisecond
		if tick/40%2 == 1 {
			lag = 1500 * time.Millisecond
		}
		s.Poll(now, func(d []byte) {
			at := now.Add(lag)
			if at.Before(last) {
				at = last
			}
			last = at
			link = append(link, inflight{at, append([]byte(nil), d...)})
		})
		for len(link) > 0 && !link[0].at.After(now) {
			d := link[0].d
			link = link[1:]
			for _, p := range split(t, d, 40) {
				if err := r.Offer(p, now, deliver); err != nil {
					t.Fatal(err)
				}
			}
		}
		if r.AckDue() {
			s.OnAck(r.Ack(now), now)
		}
		if err := s.Dead(); err != nil {
			t.Fatalf("tick %d: %v", tick, err)
		}
	}
	// What is still on the link or unacknowledged is not yet delivered.
	if delivered > ticks*10 || delivered+uint32(s.InFlight()) < ticks*10 {
		t.Fatalf("delivered %d of %d events (%d in flight)", delivered, ticks*10, s.InFlight())
	}
	return s.Stats()
}

// TestSenderStalls: a client whose lag jumps from 200 ms to 1.5 s and back
// loses nothing; every retransmission is spurious. With the full burst at
// every round of timeouts, 107 retransmissions of 4000 events (2.7 %);
// with the burst halved per round, 53.
func TestSenderStalls(t *testing.T) {
	st := stallRun(t)
	if st.Events != 4000 {
		t.Fatalf("got %d events sent, want 4000", st.Events)
	}
	if st.Retransmits*100 > st.Events*3/2 {
		t.Errorf("got %d retransmissions of %d events to a client that lost nothing, want at most 1.5 %%", st.Retransmits, st.Events)
	}
	t.Logf("events %d, retransmits %d (timeouts %d, fast %d, deferred %d), datagrams %d", st.Events, st.Retransmits, st.Timeouts, st.FastRetransmits, st.Deferred, st.Datagrams)
}
