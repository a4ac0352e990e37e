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
// has written that batch; with a writer a tick behind, no new buffer is
// taken.
func TestSwapUnreliableKeepsWhatTheWriterHolds(t *testing.T) {
	var s Session
	fill := func(text string) []byte {
		s.SendUnreliable([]byte(text))
		return s.unrel
	}
	same := func(a, b []byte) bool { return &a[:1][0] == &b[:1][0] }
	b1 := fill("tick 1")
	s.swapUnreliable(1, 0) // batch 1 not written yet
	b2 := fill("tick 2")
	s.swapUnreliable(2, 0) // batches 1 and 2 held
	b3 := fill("tick 3")
	if same(b3, b1) || same(b3, b2) {
		t.Fatalf("tick 3 was written over a held buffer")
	}
	s.swapUnreliable(3, 1) // batch 1 written: its buffer is filled next
	b4 := fill("tick 4")
	if !same(b4, b1) {
		t.Errorf("tick 4 went to another buffer, want batch 1's (written)")
	}
	s.swapUnreliable(4, 1) // batches 3 and 4 held (2 left to the writer): a new buffer
	b5 := fill("tick 5")
	if string(b2) != "tick 2" || string(b3) != "tick 3" || string(b4) != "tick 4" {
		t.Fatalf("got held buffers %q, %q, %q, want them untouched", b2, b3, b4)
	}
	if same(b5, b3) || same(b5, b4) {
		t.Fatalf("tick 5 was written over a held buffer")
	}
	s.swapUnreliable(5, 4) // up to 4 written: the older held (batch 3's) is reused
	if b6 := fill("tick 6"); string(b6) != "tick 6" || !same(b6, b3) {
		t.Errorf("got %q in another buffer, want tick 6 written over batch 3's", b6)
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
