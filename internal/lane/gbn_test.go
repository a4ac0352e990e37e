package lane

import (
	"encoding/binary"
	"errors"
	"slices"
	"testing"

	"dlmp/internal/wire"
)

// clientEvent returns a 17-byte client packet (PickupTouch's shape) with
// event_id id and seq in bytes 13..17.
func clientEvent(id, seq uint32) []byte {
	b := make([]byte, 17)
	b[0] = 0x13
	binary.LittleEndian.PutUint64(b[1:], 0xC0FFEE)
	binary.LittleEndian.PutUint32(b[9:], id)
	binary.LittleEndian.PutUint32(b[13:], seq)
	return b
}

func gbnIDs(dgrams [][]byte) []uint32 {
	var out []uint32
	for _, d := range dgrams {
		for ; len(d) >= 17; d = d[17:] {
			out = append(out, binary.LittleEndian.Uint32(d[9:13]))
		}
	}
	return out
}

func TestGBNSenderWindowAndGoBack(t *testing.T) {
	g := NewGBNSender(GBNConfig{Window: 3})
	for i := range 5 {
		if err := g.Push(clientEvent(0, uint32(i))); err != nil {
			t.Fatal(err)
		}
	}
	var out [][]byte
	emit := func(d []byte) { out = append(out, append([]byte(nil), d...)) }
	g.Poll(t0, emit)
	if got, want := gbnIDs(out), []uint32{1, 2, 3}; !slices.Equal(got, want) {
		t.Fatalf("first poll sent %v, want %v", got, want)
	}
	g.OnAck(wire.ServerAck{Ack: 1}, t0.Add(ms(50)))
	out = nil
	g.Poll(t0.Add(ms(50)), emit)
	if got, want := gbnIDs(out), []uint32{4}; !slices.Equal(got, want) {
		t.Fatalf("after ack 1: sent %v, want %v", got, want)
	}
	// The base's timer expires: everything from the base again.
	deadline := g.NextTimeout()
	out = nil
	g.Poll(deadline.Add(-1), emit)
	if len(out) != 0 {
		t.Fatalf("before the deadline: sent %v", gbnIDs(out))
	}
	g.Poll(deadline, emit)
	if got, want := gbnIDs(out), []uint32{2, 3, 4}; !slices.Equal(got, want) {
		t.Fatalf("on timeout: sent %v, want %v", got, want)
	}
	if st := g.Stats(); st.Timeouts != 1 || st.Retransmits != 3 {
		t.Errorf("Timeouts %d Retransmits %d, want 1 and 3", st.Timeouts, st.Retransmits)
	}
	// Acks: an old one is ignored, one beyond what was sent is counted.
	g.OnAck(wire.ServerAck{Ack: 0}, deadline)
	g.OnAck(wire.ServerAck{Ack: 5}, deadline)
	if st := g.Stats(); st.BadAcks != 1 {
		t.Errorf("BadAcks = %d, want 1", st.BadAcks)
	}
	g.OnAck(wire.ServerAck{Ack: 4}, deadline.Add(ms(10)))
	out = nil
	g.Poll(deadline.Add(ms(10)), emit)
	if got, want := gbnIDs(out), []uint32{5}; !slices.Equal(got, want) {
		t.Fatalf("after ack 4: sent %v, want %v", got, want)
	}
}

func TestGBNSenderQueueFullAndDead(t *testing.T) {
	g := NewGBNSender(GBNConfig{Capacity: 2, MaxTries: 3})
	_ = g.Push(clientEvent(0, 0))
	_ = g.Push(clientEvent(0, 1))
	if err := g.Push(clientEvent(0, 2)); !errors.Is(err, ErrQueueFull) {
		t.Fatalf("third push into 2: %v, want ErrQueueFull", err)
	}
	if err := g.Push(make([]byte, 12)); !errors.Is(err, ErrMessage) {
		t.Fatalf("12-byte push: %v, want ErrMessage", err)
	}
	now := t0
	polls := 0
	for g.Dead() == nil && polls < 100 {
		g.Poll(now, func([]byte) {})
		now = g.NextTimeout()
		polls++
	}
	if err := g.Dead(); !errors.Is(err, ErrDead) {
		t.Fatalf("Dead() = %v, want ErrDead", err)
	}
	if got := g.Stats().Sends; got != 6 {
		t.Errorf("sent %d times before dying, want 6 (2 events × 3 tries)", got)
	}
}

func TestGBNReceiver(t *testing.T) {
	r := NewGBNReceiver(ms(1000))
	if _, ok := r.Ack(t0); ok {
		t.Fatalf("ServerAck before any client event")
	}
	steps := []struct {
		id     uint32
		accept bool
		ack    uint32
	}{
		{1, true, 1},
		{3, false, 1}, // future: dropped
		{2, true, 2},
		{2, false, 2}, // duplicate: re-acknowledged
		{1, false, 2},
		{3, true, 3},
	}
	for i, s := range steps {
		if got := r.Offer(clientEvent(s.id, 0), t0); got != s.accept {
			t.Fatalf("step %d (id %d): accepted %v, want %v", i, s.id, got, s.accept)
		}
		if !r.AckDue() {
			t.Fatalf("step %d: AckDue() false", i)
		}
		a, ok := r.Ack(t0)
		if !ok || a.Ack != s.ack {
			t.Fatalf("step %d: ServerAck %d %v, want %d true", i, a.Ack, ok, s.ack)
		}
	}
	st := r.Stats()
	if st.Accepted != 3 || st.Duplicates != 2 || st.Future != 1 {
		t.Errorf("stats %+v, want 3 accepted, 2 duplicates, 1 future", st)
	}
	if _, ok := r.Ack(t0.Add(ms(1000))); !ok {
		t.Errorf("no ServerAck within the linger")
	}
	if _, ok := r.Ack(t0.Add(ms(1001))); ok {
		t.Errorf("ServerAck after the linger")
	}
	if r.Offer(clientEvent(0, 0), t0) || r.Offer(make([]byte, 12), t0) {
		t.Errorf("malformed packet accepted")
	}
	if got := r.Stats().Malformed; got != 2 {
		t.Errorf("Malformed = %d, want 2", got)
	}
}

func TestSequence(t *testing.T) {
	var s Sequence
	steps := []struct {
		seq uint32
		ok  bool
	}{
		{5, true}, {5, false}, {4, false}, {6, true},
		{1<<31 + 6, false}, // exactly half the range ahead: not newer
		{1<<31 + 5, true},
		{1<<32 - 1, true},
		{0, true}, // wrapped
		{1<<32 - 2, false},
		{3, true},
	}
	for i, st := range steps {
		if got := s.Accept(st.seq); got != st.ok {
			t.Fatalf("step %d: Accept(%d) = %v, want %v", i, st.seq, got, st.ok)
		}
	}
	if got := s.Stale(); got != 4 {
		t.Errorf("Stale() = %d, want 4", got)
	}
}
