package transport

import (
	"net/netip"
	"sync/atomic"
	"testing"
	"time"
)

// A writer two ticks behind leaves a session's older held buffer to it;
// once that batch is written the buffer is taken again (warm pages), by
// this session or another, instead of a new one: fails when
// swapUnreliable makes a buffer whenever both are held.
func TestSwapUnreliableTakesWrittenSpares(t *testing.T) {
	var reused atomic.Uint64
	sp := &spares{reused: &reused}
	var a, b Session
	same := func(x, y []byte) bool { return &x[:1][0] == &y[:1][0] }
	fill := func(s *Session, text string) []byte {
		s.SendUnreliable([]byte(text))
		return s.unrel
	}
	a1 := fill(&a, "a1")
	a.swapUnreliable(1, 0, sp)
	a2 := fill(&a, "a2")
	a.swapUnreliable(2, 0, sp) // 1 and 2 held, the third buffer is filled
	a3 := fill(&a, "a3")
	a.swapUnreliable(3, 0, sp) // 1 and 2 still held: 1 left to the writer, kept
	a4 := fill(&a, "a4")
	if same(a4, a1) || same(a4, a2) || same(a4, a3) {
		t.Fatal("tick 4 was written over a held buffer")
	}
	if sp.made != 1 || reused.Load() != 0 {
		t.Fatalf("got %d new, %d reused buffers, want 1, 0 (nothing written yet)", sp.made, reused.Load())
	}
	a.swapUnreliable(4, 0, sp) // 2 and 3 held: 2 left too, a new buffer again
	fill(&a, "a5")
	a.swapUnreliable(5, 1, sp) // batch 1 written: a1's buffer is taken again
	a6 := fill(&a, "a6")
	if !same(a6, a1) {
		t.Errorf("tick 6 went to another buffer, want a1's (its batch written)")
	}
	if string(a2) != "a2" || string(a3) != "a3" || string(a4) != "a4" {
		t.Fatalf("got held %q, %q, %q, want them untouched", a2, a3, a4)
	}
	// Another session two behind takes a2's buffer once batch 2 is written.
	fill(&b, "b1")
	b.swapUnreliable(6, 2, sp)
	fill(&b, "b2")
	b.swapUnreliable(7, 2, sp)
	fill(&b, "b3")
	b.swapUnreliable(8, 2, sp) // 6 and 7 held: batch 2's buffer (a2's) is taken
	if b4 := fill(&b, "b4"); !same(b4, a2) {
		t.Errorf("session b took another buffer, want a2's (batch 2 written)")
	}
	if sp.made != 2 || reused.Load() != 2 {
		t.Errorf("got %d new, %d reused buffers, want 2, 2", sp.made, reused.Load())
	}
}

// The spares never hand out a buffer whose batch is not written, and keep
// at most MaxSpares.
func TestSparesBounded(t *testing.T) {
	var sp spares
	for i := range MaxSpares + 10 {
		sp.put(heldBuf{buf: make([]byte, 0, 8), seq: uint64(i + 1)})
	}
	if sp.n != MaxSpares {
		t.Fatalf("got %d kept, want %d", sp.n, MaxSpares)
	}
	first := sp.bufs[sp.head].buf
	if got := sp.take(0, 8, 8).buf; &got[:1][0] == &first[:1][0] {
		t.Fatal("took a buffer whose batch is not written")
	}
	for i := range MaxSpares {
		if sp.take(uint64(MaxSpares), 8, 8).buf == nil {
			t.Fatalf("take %d: nil", i)
		}
	}
	if sp.n != 0 {
		t.Errorf("got %d left after taking every written one, want 0", sp.n)
	}
	var none *spares
	none.put(heldBuf{buf: make([]byte, 1), seq: 1})
	if got := none.take(5, 16, 4).buf; cap(got) != 16 || len(got) != 0 {
		t.Errorf("nil spares: got len %d cap %d, want a new empty buffer of 16", len(got), cap(got))
	}
}

// BenchmarkSwapWriterBehind: one tick of a crowd viewer's moves (90
// PlayerMoves of 42 bytes, as spans) and the swap, with a writer that
// writes each batch two ticks late: a buffer a tick taken back from the
// spares, against a new one each time (no spares: what 0289 did). ns/op
// is one tick of one session; a new buffer's pages fault on the tick
// thread besides (not counted here: the benchmark's heap is warm).
func BenchmarkSwapWriterBehind(b *testing.B) {
	shared := make([]byte, 180*42)
	spans := make([]uint64, 90)
	for i := range spans {
		spans[i] = uint64(2*i*42) | 42<<32
	}
	for _, bc := range []struct {
		name string
		sp   *spares
	}{{"new", nil}, {"spares", &spares{}}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var s Session
			seq := uint64(0)
			for b.Loop() {
				s.SendUnreliableSpans(shared, spans)
				seq++
				s.swapUnreliable(seq, max(seq, 3)-3, bc.sp) // three batches in the writer's queue
				s.unrelEnd, s.partEnd = s.unrelEnd[:0], s.partEnd[:0]
			}
		})
	}
}

// A writer two ticks behind a session, with no spare written either: the
// tick drops that session's unreliable datagrams and keeps its buffer,
// instead of making a new one (decision 0318); once the writer catches up
// they flow again. Fails when the tick emits them into a new buffer.
func TestWriterTwoBehindDropsUnreliables(t *testing.T) {
	cfg := Config{}
	cfg.fill()
	s := &Server{cfg: cfg, out: make(chan *batch, 16), freeB: make(chan *batch, 16)}
	s.pool.New = func() any { return new(buffer) }
	s.tick.init(s)
	now := time.Unix(1000, 0)
	sess := newSession(s, 1, netip.MustParseAddrPort("127.0.0.1:9"), 1, now)
	sess.confirmed = true
	var filled *byte // the buffer the last tick's moves went in
	tick := func(msg string) (unrel int) {
		sess.lastHeard = now
		sess.SendUnreliable([]byte(msg))
		filled = &sess.unrel[:1][0]
		s.tick.step(sess, now)
		if b := s.tick.out; b != nil {
			for _, m := range b.msgs {
				if string(m.Buf) == msg {
					unrel++
				}
			}
		}
		s.tick.flush()
		return unrel
	}
	for i, msg := range []string{"t1", "t2"} { // batches 1 and 2, neither written
		if got := tick(msg); got != 1 {
			t.Fatalf("tick %d: got %d datagrams of its moves, want 1", i+1, got)
		}
	}
	if got := tick("t3"); got != 0 {
		t.Fatalf("tick 3, the writer two behind: got %d datagrams of its moves, want 0 (dropped)", got)
	}
	if got := s.stats.UnreliableDropped.Load(); got != 1 {
		t.Errorf("got %d unreliable datagrams counted dropped, want 1", got)
	}
	if got := s.tick.spares.made; got != 0 {
		t.Errorf("got %d new unreliable buffers, want 0", got)
	}
	if cap(sess.unrel) == 0 || &sess.unrel[:1][0] != filled {
		t.Error("the dropped tick's buffer was not kept for the next one")
	}
	s.written.Store(1) // the writer wrote batch 1: its buffer is free again
	if got := tick("t4"); got != 1 {
		t.Errorf("tick 4, batch 1 written: got %d datagrams of its moves, want 1", got)
	}
}

// A buffer that comes late (an older batch after newer ones: a session
// that skipped ticks) is kept in batch order, so a written one is never
// stuck behind one whose batch is not: fails when put only appends.
func TestSparesKeepBatchOrder(t *testing.T) {
	var sp spares
	for _, seq := range []uint64{5, 6, 3, 7, 4} {
		sp.put(heldBuf{buf: make([]byte, 1, 8), seq: seq})
	}
	for _, want := range []uint64{3, 4, 5, 6, 7} {
		if got := sp.bufs[sp.head].seq; got != want {
			t.Fatalf("oldest kept is batch %d, want %d", got, want)
		}
		if !sp.ready(want) || sp.ready(want-1) {
			t.Fatalf("batch %d: ready at %d %v, at %d %v; want true, false", want, want, sp.ready(want), want-1, sp.ready(want-1))
		}
		sp.take(want, 8, 8)
	}
}
