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

// SendUnreliables queues what SendUnreliable does packet by packet: the
// same bytes and the same datagram ends, across runs and with a packet too
// large dropped.
func TestSendUnreliablesMatchesOneByOne(t *testing.T) {
	var runs [][][]byte
	size := 1
	for r := range 6 {
		var run [][]byte
		for i := range 4 + 7*r {
			size = (size*37 + 11) % 700
			run = append(run, bytes.Repeat([]byte{byte(r*50 + i)}, size+1))
		}
		if r == 3 {
			run = append(run, make([]byte, wire.MaxDatagram+1), make([]byte, wire.MaxDatagram))
		}
		runs = append(runs, run)
	}
	var one, batch Session
	for _, run := range runs {
		for _, msg := range run {
			one.SendUnreliable(msg)
		}
		batch.SendUnreliables(run)
	}
	if !bytes.Equal(batch.unrel, one.unrel) {
		t.Fatalf("got %d bytes queued, want %d as one by one", len(batch.unrel), len(one.unrel))
	}
	if !slices.Equal(batch.unrelEnd, one.unrelEnd) {
		t.Errorf("got datagram ends %v, want %v", batch.unrelEnd, one.unrelEnd)
	}
	var closed Session
	closed.Kick(1)
	closed.SendUnreliables(runs[0])
	if len(closed.unrel) != 0 {
		t.Errorf("a closing session queued %d bytes, want none", len(closed.unrel))
	}
}

func BenchmarkSendUnreliables(b *testing.B) {
	msgs := make([][]byte, 90)
	for i := range msgs {
		msgs[i] = make([]byte, 42)
	}
	b.Run("one-by-one", func(b *testing.B) {
		b.ReportAllocs()
		var s Session
		for b.Loop() {
			s.unrel, s.unrelEnd = s.unrel[:0], s.unrelEnd[:0]
			for _, m := range msgs {
				s.SendUnreliable(m)
			}
		}
	})
	b.Run("run", func(b *testing.B) {
		b.ReportAllocs()
		var s Session
		for b.Loop() {
			s.unrel, s.unrelEnd = s.unrel[:0], s.unrelEnd[:0]
			s.SendUnreliables(msgs)
		}
	})
}
