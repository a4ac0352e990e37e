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
