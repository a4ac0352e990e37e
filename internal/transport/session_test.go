package transport

import (
	"bytes"
	"slices"
	"testing"

	"dlmp/internal/wire"
)

func TestSendUnreliablePacksDatagrams(t *testing.T) {
	var s Session
	var want []byte
	for i := range 30 {
		msg := bytes.Repeat([]byte{byte(i)}, 100)
		s.SendUnreliable(msg)
		want = append(want, msg...)
	}
	s.SendUnreliable(make([]byte, wire.MaxDatagram+1)) // dropped
	if !bytes.Equal(s.unrel, want) {
		t.Fatalf("got %d bytes queued, want the 30 packets back to back (%d bytes)", len(s.unrel), len(want))
	}
	// 12 packets of 100 bytes fit in 1200.
	if got, wantEnds := s.unrelEnd, []int{1200, 2400, 3000}; !slices.Equal(got, wantEnds) {
		t.Errorf("got datagram ends %v, want %v", got, wantEnds)
	}
	s.SendUnreliable(make([]byte, wire.MaxDatagram))
	if got := s.unrelEnd[len(s.unrelEnd)-1]; got != 3000+wire.MaxDatagram || len(s.unrelEnd) != 4 {
		t.Errorf("got ends %v, want a fourth datagram of %d bytes", s.unrelEnd, wire.MaxDatagram)
	}
}

// The buffer a tick's batch holds is not written again before the writer
// has written that batch.
func TestSwapUnreliableKeepsWhatTheWriterHolds(t *testing.T) {
	var s Session
	s.SendUnreliable([]byte("tick 1"))
	held1 := s.unrel
	s.swapUnreliable(1, 0) // batch 1 not written yet
	s.SendUnreliable([]byte("tick 2"))
	held2 := s.unrel
	s.swapUnreliable(2, 0) // batch 1 still not written: a new buffer
	s.SendUnreliable([]byte("tick 3"))
	if string(held1) != "tick 1" || string(held2) != "tick 2" {
		t.Fatalf("got held buffers %q and %q, want them untouched", held1, held2)
	}
	s.swapUnreliable(3, 2) // batches up to 2 written: the spare (batch 2's) is reused
	s.SendUnreliable([]byte("tick 4"))
	if string(s.unrel) != "tick 4" || &held2[:1][0] != &s.unrel[:1][0] {
		t.Errorf("got %q in a new buffer, want tick 4 written over batch 2's buffer", s.unrel)
	}
}
