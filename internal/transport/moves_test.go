package transport

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"
	"time"

	"dlmp/internal/conn"
	"dlmp/internal/wire"
)

// worldMoves is a world's one buffer of a tick's PlayerMoves (n movers,
// 42 bytes each, every byte set by the tick and the mover), written in
// place each tick as the world's encodeMoves does.
type worldMoves struct {
	buf []byte
}

func (w *worldMoves) encode(tick uint32, n int) {
	w.buf = w.buf[:0]
	for id := range n {
		m := wire.PlayerMove{Seq: tick, PlayerID: uint16(id), X: float32(tick), Y: float32(id), Health: uint8(tick + uint32(id))}
		w.buf = m.Append(w.buf)
	}
}

// span is mover id's move in the world's buffer (off | n<<32).
func span(id int) uint64 { return uint64(id*42) | 42<<32 }

// viewerSends queues viewer v's unreliable packets of a tick on s as the
// world does: its movers' moves as spans of the world's buffer (a run of
// near ones with neighbours, so some follow each other in it), a packet
// of its own (a fresh move, a VehicleMove) in between, more spans.
func viewerSends(s *Session, w *worldMoves, v int, tick uint32) {
	var run []uint64
	for i := range 40 + 7*v {
		run = append(run, span((i*(3+v)+int(tick))%100))
	}
	run = append(run, span(50), span(51), span(52)) // neighbours: one piece
	s.SendUnreliableSpans(w.buf, run)
	own := wire.PlayerMove{Seq: 999, PlayerID: uint16(500 + v), Z: float32(tick)}
	s.SendUnreliable(own.Append(nil))
	s.SendUnreliableSpans(w.buf, []uint64{span(7), span(8), span(99), uint64(len(w.buf)) | 42<<32}) // the last past the end: dropped
}

// copied returns the datagrams the same sends give when every packet is
// copied into the session (the path before decision 0355): its unrel cut
// at its datagram ends.
func copied(w *worldMoves, v int, tick uint32) [][]byte {
	var s Session // no server: SendUnreliableSpans copies
	viewerSends(&s, w, v, tick)
	var out [][]byte
	start := 0
	for _, end := range s.unrelEnd {
		out = append(out, bytes.Clone(s.unrel[start:end]))
		start = end
	}
	return out
}

// The shared moves' copy a batch points into is not written over before
// the writer has written that batch: with the writer held back two ticks
// and the world's buffer written in place each tick, each tick's
// datagrams reach the clients over real sockets byte for byte as the
// copying path made them, the first packed after an earlier datagram to
// the same client (a gather list with a head); once the writer catches
// up, the copies are taken again. Fails when the transport points into
// the world's buffer, or takes a copy again before its batch is written.
func TestSharedMovesKeptUntilWritten(t *testing.T) {
	eachSendMode(t, func(t *testing.T, _ bool) {
		s, _ := tickFixture(t)
		tx, err := conn.Listen("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Close()
		var rx []*conn.Conn
		now := time.Unix(1000, 0)
		for v := range 2 {
			c, err := conn.Listen("127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			rx = append(rx, c)
			sess := newSession(s, uint64(v+1), c.LocalAddr(), 1, now)
			sess.confirmed = true
			s.tick.sessions = append(s.tick.sessions, sess)
		}
		w := &worldMoves{}
		want := make([][][]byte, 2) // by viewer, in order
		head := (&wire.ServerKeepalive{Echo: 7}).Append(nil)
		tick := func(n uint32) {
			w.encode(n, 100)
			for v, sess := range s.tick.sessions {
				sess.lastHeard = now
				viewerSends(sess, w, v, n)
				dg := copied(w, v, n)
				if n == 2 && v == 0 { // (stepped first: nothing emitted after it)
					// a datagram to this client before its moves: the
					// first is packed after it
					s.tick.emit(sess.Addr, head)
					dg[0] = append(bytes.Clone(head), dg[0]...)
				}
				want[v] = append(want[v], dg...)
			}
			s.flush(now, MaxEndsPerFlush)
		}
		write := func() {
			for {
				select {
				case b := <-s.out:
					if n, err := s.write(tx, b); err != nil || n != len(b.msgs) {
						t.Fatalf("WriteBatch = %d, %v; want %d, nil", n, err, len(b.msgs))
					}
					s.written.Store(b.seq)
					s.recycle(b)
				default:
					return
				}
			}
		}
		tick(1)
		tick(2) // the world's buffer written over; batch 1 not written
		if s.tick.movesMade != 2 {
			t.Fatalf("%d copies of the shared moves made, want 2 (batch 1 not written)", s.tick.movesMade)
		}
		write()
		tick(3)
		tick(4)
		write()
		if s.tick.movesMade != 2 {
			t.Errorf("%d copies made, want 2: the written ones are taken again", s.tick.movesMade)
		}
		if got := s.stats.UnreliableDropped.Load(); got != 0 {
			t.Fatalf("%d unreliable datagrams dropped, want 0", got)
		}
		for v, c := range rx {
			got := readDatagrams(t, c, len(want[v]))
			for i := range want[v] {
				if !bytes.Equal(got[i], want[v][i]) {
					t.Fatalf("viewer %d, datagram %d: got %d bytes, want %d (%x... / %x...)", v, i, len(got[i]), len(want[v][i]), got[i][:min(12, len(got[i]))], want[v][i][:min(12, len(want[v][i]))])
				}
			}
		}
	})
}

// readDatagrams reads n datagrams from c, then checks nothing more comes.
func readDatagrams(t *testing.T, c *conn.Conn, n int) [][]byte {
	t.Helper()
	var out [][]byte
	ms := make([]conn.Message, conn.MaxBatch)
	for i := range ms {
		ms[i].Buf = make([]byte, 2048)
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			c.Close() // unblocks the read
		}
	}()
	defer close(done)
	for len(out) < n {
		k, err := c.ReadBatch(ms)
		if err != nil {
			t.Fatalf("got %d of %d datagrams: %v", len(out), n, err)
		}
		for _, m := range ms[:k] {
			out = append(out, bytes.Clone(m.Buf[:m.N]))
		}
	}
	if len(out) != n {
		t.Fatalf("got %d datagrams, want %d", len(out), n)
	}
	return out
}

// Through a running Server (its writer goroutine, GSO on and off), the
// clients receive the shared moves' datagrams byte for byte as the copying
// path made them, tick after tick, with the world's buffer written in
// place between ticks.
func TestSharedMovesOverSockets(t *testing.T) {
	eachSendMode(t, func(t *testing.T, gso bool) {
		f := newFixture(t, Config{})
		if f.srv.GSO() != (gso && runtime.GOOS == "linux") {
			t.Fatalf("GSO() = %v", f.srv.GSO())
		}
		var cs []*client
		for range 2 {
			c := dial(t, f)
			c.connect(f)
			cs = append(cs, c)
		}
		w := &worldMoves{}
		want := make([][][]byte, 2)
		for n := uint32(1); n <= 5; n++ {
			w.encode(n, 100)
			for v, sess := range f.w.joined {
				viewerSends(sess, w, v, n)
				want[v] = append(want[v], copied(w, v, n)...)
			}
			f.tick(50 * time.Millisecond)
			for deadline := time.Now().Add(5 * time.Second); f.srv.Pending() > 0 && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond) // a writer two behind drops moves (decision 0318)
			}
		}
		for v, c := range cs {
			for i := 0; i < len(want[v]); {
				d := c.read(2 * time.Second)
				if d == nil {
					t.Fatalf("viewer %d: got %d of %d datagrams", v, i, len(want[v]))
				}
				if d[0] != wire.IDPlayerMove {
					continue // a keepalive
				}
				if !bytes.Equal(d, want[v][i]) {
					t.Fatalf("viewer %d, datagram %d: got %d bytes, want %d", v, i, len(d), len(want[v][i]))
				}
				i++
			}
		}
		if st := f.srv.Stats(); st.UnreliableDropped != 0 {
			t.Errorf("%d unreliable datagrams dropped", st.UnreliableDropped)
		}
	})
}

// Spans sent during a Flush (a Leave's sends, after the session's step)
// are copied into the session, not pointed at this tick's shared moves,
// whose copy is left to this tick's batch.
func TestSpansDuringFlushCopied(t *testing.T) {
	s, sess := tickFixture(t)
	w := &worldMoves{}
	w.encode(1, 10)
	s.tick.inFlush = true
	sess.SendUnreliableSpans(w.buf, []uint64{span(1), span(2)})
	s.tick.inFlush = false
	if len(sess.parts) != 1 || sess.parts[0]&partShared != 0 || !bytes.Equal(sess.unrel, w.buf[42:126]) {
		t.Fatalf("got parts %x, %d bytes copied; want one piece of the session's own, the 2 moves", sess.parts, len(sess.unrel))
	}
	if s.tick.moves != nil {
		t.Error("a copy of the shared moves was made during a Flush")
	}
	sess.SendUnreliableSpans(w.buf, []uint64{span(3)})
	if sess.runN != 1 || s.tick.moves.spans[sess.runAt]&partShared == 0 || len(sess.unrel) != 84 {
		t.Error("outside a Flush, a span was copied into the session")
	}
}

// A session's shared parts of an earlier tick (which shareMoves keeps from
// happening) are dropped and counted, never sent from a copy that may be
// written over.
func TestStaleSharedPartsDropped(t *testing.T) {
	s, sess := tickFixture(t)
	w := &worldMoves{}
	w.encode(1, 10)
	sess.SendUnreliableSpans(w.buf, []uint64{span(1)})
	s.tick.endMoves(0) // the tick's copy closed with the part still queued
	sess.lastHeard = time.Unix(1000, 0)
	s.tick.step(sess, time.Unix(1000, 0))
	if got := s.stats.UnreliableDropped.Load(); got != 1 {
		t.Fatalf("got %d dropped, want 1", got)
	}
	if b := s.tick.out; b != nil && len(b.gather) > 0 {
		t.Fatal("a stale shared part was emitted")
	}
}

// eachSendMode runs f as a subtest in each of the transport's send
// modes: GSO on and off (gso), with the writer's copy or its iovec
// gather lists.
func eachSendMode(t *testing.T, f func(t *testing.T, gso bool)) {
	for _, mode := range []struct{ gso, iovec bool }{{true, false}, {false, false}, {true, true}, {false, true}} {
		t.Run(fmt.Sprintf("gso=%v/iovec=%v", mode.gso, mode.iovec), func(t *testing.T) {
			if !mode.gso {
				t.Setenv("DLMP_GSO", "0")
			}
			if mode.iovec {
				t.Setenv("DLMP_GATHER", "iovec")
			}
			f(t, mode.gso)
		})
	}
}
