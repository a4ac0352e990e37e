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
	s.swapUnreliable(1, 0, nil) // batch 1 not written yet
	b2 := fill("tick 2")
	s.swapUnreliable(2, 0, nil) // batches 1 and 2 held
	b3 := fill("tick 3")
	if same(b3, b1) || same(b3, b2) {
		t.Fatalf("tick 3 was written over a held buffer")
	}
	s.swapUnreliable(3, 1, nil) // batch 1 written: its buffer is filled next
	b4 := fill("tick 4")
	if !same(b4, b1) {
		t.Errorf("tick 4 went to another buffer, want batch 1's (written)")
	}
	s.swapUnreliable(4, 1, nil) // batches 3 and 4 held (2 left to the writer): a new buffer
	b5 := fill("tick 5")
	if string(b2) != "tick 2" || string(b3) != "tick 3" || string(b4) != "tick 4" {
		t.Fatalf("got held buffers %q, %q, %q, want them untouched", b2, b3, b4)
	}
	if same(b5, b3) || same(b5, b4) {
		t.Fatalf("tick 5 was written over a held buffer")
	}
	s.swapUnreliable(5, 4, nil) // up to 4 written: the older held (batch 3's) is reused
	if b6 := fill("tick 6"); string(b6) != "tick 6" || !same(b6, b3) {
		t.Errorf("got %q in another buffer, want tick 6 written over batch 3's", b6)
	}
}

// SendUnreliableSpans queues what SendUnreliable does packet by packet:
// the same bytes and the same datagram ends, across runs, with a packet
// too large dropped and a span past the buffer's end dropped.
func TestSendUnreliableSpansMatchesOneByOne(t *testing.T) {
	var buf []byte
	var runs [][]uint64
	size := 1
	for r := range 6 {
		var run []uint64
		add := func(msg []byte) {
			run = append(run, uint64(len(buf))|uint64(len(msg))<<32)
			buf = append(buf, msg...)
		}
		for i := range 4 + 7*r {
			size = (size*37 + 11) % 700
			add(bytes.Repeat([]byte{byte(r*50 + i)}, size+1))
		}
		if r == 3 {
			add(make([]byte, wire.MaxDatagram+1))
			add(make([]byte, wire.MaxDatagram))
		}
		runs = append(runs, run)
	}
	var one, batch Session
	for _, run := range runs {
		for _, sp := range run {
			one.SendUnreliable(buf[uint32(sp) : uint32(sp)+uint32(sp>>32)])
		}
		batch.SendUnreliableSpans(buf, run)
	}
	if !bytes.Equal(batch.unrel, one.unrel) {
		t.Fatalf("got %d bytes queued, want %d as one by one", len(batch.unrel), len(one.unrel))
	}
	if !slices.Equal(batch.unrelEnd, one.unrelEnd) {
		t.Errorf("got datagram ends %v, want %v", batch.unrelEnd, one.unrelEnd)
	}
	queued := len(batch.unrel)
	past := []uint64{uint64(len(buf)-1) | 2<<32, uint64(len(buf)) | 1<<32, 1<<31 | 1<<32}
	batch.SendUnreliableSpans(buf, past)
	if len(batch.unrel) != queued {
		t.Errorf("spans past the buffer's end queued %d bytes, want none", len(batch.unrel)-queued)
	}
	var closed Session
	closed.Kick(1)
	closed.SendUnreliableSpans(buf, runs[0])
	if len(closed.unrel) != 0 {
		t.Errorf("a closing session queued %d bytes, want none", len(closed.unrel))
	}
	ended := Session{ended: true}
	ended.SendUnreliableSpans(buf, runs[0])
	if len(ended.unrel) != 0 {
		t.Errorf("an ended session queued %d bytes, want none", len(ended.unrel))
	}
}

// sendRun is the run path before spans (decision 0276), the benchmark's
// baseline: the world built a [][]byte of its moves for it.
func (s *Session) sendRun(msgs [][]byte) {
	if s.closing != 0 || s.ended {
		return
	}
	for _, msg := range msgs {
		s.SendUnreliable(msg)
	}
}

// BenchmarkSendUnreliables queues a crowd viewer's tick of moves (90
// PlayerMoves of 42 bytes, every other one of a shared buffer of 180):
// one call each, one run of slices built for it (the world's loop
// included), one run of spans copied, one run of spans of the shared
// moves.
func BenchmarkSendUnreliables(b *testing.B) {
	shared := make([]byte, 180*42)
	spans := make([]uint64, 90)
	for i := range spans {
		spans[i] = uint64(2*i*42) | 42<<32
	}
	b.Run("one-by-one", func(b *testing.B) {
		b.ReportAllocs()
		var s Session
		for b.Loop() {
			s.unrel, s.unrelEnd, s.parts, s.partEnd = s.unrel[:0], s.unrelEnd[:0], s.parts[:0], s.partEnd[:0]
			for _, sp := range spans {
				s.SendUnreliable(shared[uint32(sp) : uint32(sp)+uint32(sp>>32)])
			}
		}
	})
	b.Run("run", func(b *testing.B) {
		b.ReportAllocs()
		var s Session
		var run [][]byte
		for b.Loop() {
			s.unrel, s.unrelEnd, s.parts, s.partEnd = s.unrel[:0], s.unrelEnd[:0], s.parts[:0], s.partEnd[:0]
			run = run[:0]
			for _, sp := range spans {
				run = append(run, shared[uint32(sp):uint32(sp)+uint32(sp>>32)])
			}
			s.sendRun(run)
			clear(run)
		}
	})
	// shared: spans of the tick's one copy of the shared moves (decision
	// 0355): the session queues 8 bytes a packet and copies none.
	b.Run("shared", func(b *testing.B) {
		b.ReportAllocs()
		srv := &Server{}
		srv.tick.init(srv)
		s := Session{srv: srv}
		var run []uint64
		for b.Loop() {
			s.unrel, s.unrelEnd, s.parts, s.partEnd = s.unrel[:0], s.unrelEnd[:0], s.parts[:0], s.partEnd[:0]
			run = append(run[:0], spans...)
			s.SendUnreliableSpans(shared, run)
		}
	})
	b.Run("spans", func(b *testing.B) {
		b.ReportAllocs()
		var s Session
		var run []uint64
		for b.Loop() {
			s.unrel, s.unrelEnd, s.parts, s.partEnd = s.unrel[:0], s.unrelEnd[:0], s.parts[:0], s.partEnd[:0]
			run = append(run[:0], spans...)
			s.SendUnreliableSpans(shared, run)
		}
	})
}
