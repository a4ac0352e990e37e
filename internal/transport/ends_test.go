package transport

import (
	"testing"
	"time"

	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// TestEndsPerFlushBounded: when many clients time out together, one Flush
// ends at most MaxEndsPerFlush of them (each end is the world's Leave) and
// the next Flushes end the rest; Shutdown still ends everyone at once.
func TestEndsPerFlushBounded(t *testing.T) {
	const n = 2*MaxEndsPerFlush + 3
	f := newFixture(t, Config{Timeout: 3 * time.Second, Keepalive: time.Second, MaxPlayers: 100})
	for range n {
		dial(t, f).connect(f)
	}
	if got := f.srv.Sessions(); got != n {
		t.Fatalf("got %d sessions, want %d", got, n)
	}
	f.tick(4 * time.Second) // nobody said anything for longer than the timeout
	for i, want := range []int{MaxEndsPerFlush, 2 * MaxEndsPerFlush, n} {
		if got := len(f.w.left); got != want {
			t.Fatalf("after flush %d: got %d players left, want %d", i+1, got, want)
		}
		if got := f.srv.Sessions(); got != n-want {
			t.Errorf("after flush %d: got %d sessions, want %d", i+1, got, n-want)
		}
		if got := len(f.srv.tick.sessions); got != n-want {
			t.Errorf("after flush %d: the tick steps %d sessions, want %d", i+1, got, n-want)
		}
		f.tick(0)
	}
	for id, reason := range f.w.left {
		if reason != wire.ReasonTimeout {
			t.Errorf("player %d left with %d, want timeout", id, reason)
		}
	}

	g := newFixture(t, Config{MaxPlayers: 100})
	for range n {
		dial(t, g).connect(g)
	}
	g.srv.Shutdown(wire.ReasonServerShutdown, g.now)
	if got := len(g.w.left); got != n || g.srv.Sessions() != 0 {
		t.Errorf("after Shutdown: got %d players left and %d sessions, want %d and 0", got, g.srv.Sessions(), n)
	}
}

// TestRetransmitCauses: the lanes' retransmissions are counted by cause,
// the ended sessions' included: an event nobody acknowledges is
// retransmitted by its timer.
func TestRetransmitCauses(t *testing.T) {
	f := newFixture(t, Config{Timeout: 10 * time.Second, Keepalive: time.Second})
	c := dial(t, f)
	c.connect(f)
	sess := f.w.joined[0]
	if err := sess.Send((&wire.SetTime{Hours: 1}).Append(nil), lane.Critical); err != nil {
		t.Fatal(err)
	}
	f.tick(0)
	f.tick(time.Second) // past the RTO: no ack came (the raw client sends none)
	fast, timeouts, _ := f.srv.RetransmitCauses()
	if fast != 0 || timeouts != 1 {
		t.Fatalf("got %d fast retransmissions and %d timeouts, want 0 and 1", fast, timeouts)
	}
	sess.Kick(wire.ReasonKicked)
	f.tick(0)
	if _, timeouts, _ := f.srv.RetransmitCauses(); timeouts != 1 {
		t.Errorf("got %d timeouts after the session ended, want 1", timeouts)
	}
}

// TestEndedSessionGivesSlots: the reliable-lane slots of a session that
// ends, its unacknowledged events' included, go to the list the other
// sessions share (lane.Slots), and the next session's pushes take them.
func TestEndedSessionGivesSlots(t *testing.T) {
	f := newFixture(t, Config{Timeout: 10 * time.Second, Keepalive: time.Second})
	dial(t, f).connect(f)
	sess := f.w.joined[0]
	for range 5 {
		if err := sess.Send((&wire.SetTime{Hours: 1}).Append(nil), lane.Critical); err != nil {
			t.Fatal(err)
		}
	}
	f.tick(0) // sent, never acknowledged (the raw client sends no acks)
	if got := f.srv.FreeSlots(); got != 0 {
		t.Fatalf("got %d free shared slots while the events are in flight, want 0", got)
	}
	sess.Kick(wire.ReasonKicked)
	f.tick(0)
	if got := f.srv.FreeSlots(); got != 5 {
		t.Fatalf("got %d free shared slots after the session ended, want its 5", got)
	}
	dial(t, f).connect(f)
	next := f.w.joined[len(f.w.joined)-1]
	if err := next.Send((&wire.SetTime{Hours: 2}).Append(nil), lane.Critical); err != nil {
		t.Fatal(err)
	}
	if got := f.srv.FreeSlots(); got != 4 {
		t.Errorf("got %d free shared slots after the next session's push, want 4", got)
	}
}

// TestReceiveWarmsFreedSlots: with Config.WarmSlots the slots a Receive's
// acks free are warmed by it (lane.Slots.Warm), so that nothing is left for
// another Warm; without it (the default) Receive leaves them. Fails without
// the Warm, or with one that ignores the switch.
func TestReceiveWarmsFreedSlots(t *testing.T) {
	for _, warm := range []bool{true, false} {
		t.Run(map[bool]string{true: "on", false: "off"}[warm], func(t *testing.T) {
			checkReceiveWarm(t, warm)
		})
	}
}

// checkReceiveWarm acks 4 of 5 events and checks what a Warm after Receive
// finds: nothing with Config.WarmSlots (Receive warmed them), the 4 freed
// slots without it.
func checkReceiveWarm(t *testing.T, warm bool) {
	t.Setenv(WarmSlotsEnv, "") // Config.WarmSlots alone decides
	f := newFixture(t, Config{Timeout: 10 * time.Second, Keepalive: time.Second, WarmSlots: warm})
	c := dial(t, f)
	c.connect(f)
	sess := f.w.joined[0]
	for range 5 {
		if err := sess.Send((&wire.SetTime{Hours: 1}).Append(nil), lane.Critical); err != nil {
			t.Fatal(err)
		}
	}
	f.tick(0)
	c.write((&wire.ClientAck{Token: c.token, Ack: 4}).Append(nil))
	f.tick(10 * time.Millisecond)
	if got := f.srv.FreeSlots(); got != 4 {
		t.Fatalf("got %d free shared slots after the ack of 4 events, want 4", got)
	}
	want := 0
	if !warm {
		want = 4
	}
	if got := f.srv.tick.slots.Warm(); got != want {
		t.Errorf("WarmSlots %v: a Warm after Receive touched %d slots, want %d", warm, got, want)
	}
}
