package transport

import (
	"testing"
	"time"
)

// A writer two ticks behind drops a crowd viewer's run of shared moves
// (decision 0318), counted by the datagrams it would have made (60 moves
// of 42 bytes: 3 datagrams), and nothing of it is emitted.
func TestWriterBehindDropsRunByDatagrams(t *testing.T) {
	s, sess, w, run := behindFixture(t)
	now := time.Unix(1000, 0)
	for tick := uint32(1); tick <= 3; tick++ {
		w.encode(tick, 100)
		sess.lastHeard = now
		sess.SendUnreliableSpans(w.buf, run)
		s.tick.inFlush = true
		s.tick.step(sess, now)
		gathers := 0
		if s.tick.out != nil {
			gathers = len(s.tick.out.gather)
		}
		seq := s.tick.batchSeq
		s.tick.flush()
		if s.tick.batchSeq == seq {
			seq = 0
		} else {
			seq = s.tick.batchSeq
		}
		s.tick.endMoves(seq)
		s.tick.inFlush = false
		if tick == 3 && gathers != 0 {
			t.Errorf("tick 3 (writer two behind): %d gather messages emitted, want 0", gathers)
		}
		now = now.Add(50 * time.Millisecond)
	}
	if got := s.stats.UnreliableDropped.Load(); got != 3 {
		t.Errorf("UnreliableDropped = %d, want 3 (the third tick's run, 3 datagrams)", got)
	}
}

// While the writer is behind, each tick's copy of the moves is a new one
// (takeMoves), and the sessions' runs are packed into their own buffers
// rather than grown into the new copy's list: a tick behind touches no
// more fresh memory than before decision 0388 (decision 0318's point).
func TestWriterBehindRunsPackedInSession(t *testing.T) {
	s, sess, w, run := behindFixture(t)
	now := time.Unix(1000, 0)
	for tick := uint32(1); tick <= 4; tick++ {
		w.encode(tick, 100)
		sess.lastHeard = now
		sess.SendUnreliableSpans(w.buf, run)
		behind := s.tick.movesBehind
		if got := len(s.tick.moves.spans); behind && got != 0 {
			t.Errorf("tick %d, writer behind: the tick's list holds %d parts, want 0", tick, got)
		}
		if !behind && sess.runN != uint32(len(run)) {
			t.Errorf("tick %d, writer not behind: runN = %d, want %d", tick, sess.runN, len(run))
		}
		if behind && (sess.runN != 0 || len(sess.unrelEnd) != 3) {
			t.Errorf("tick %d, writer behind: runN %d, %d datagrams packed; want 0, 3", tick, sess.runN, len(sess.unrelEnd))
		}
		if tick >= 2 && !behind {
			t.Errorf("tick %d: nothing written since tick 1, yet the copy was not new", tick)
		}
		s.flush(now, MaxEndsPerFlush) // the writer never writes: written stays 0
		for len(s.out) > 0 {
			b := <-s.out
			s.recycle(b)
			s.pending.Add(-1)
		}
		now = now.Add(50 * time.Millisecond)
	}
}

// behindFixture is tickFixture's server with its session stepped by the
// flush, a world's buffer of moves and a run of 60 of them (42 bytes
// each: 3 datagrams).
func behindFixture(t *testing.T) (*Server, *Session, *worldMoves, []uint64) {
	t.Helper()
	s, sess := tickFixture(t)
	s.tick.sessions = append(s.tick.sessions, sess)
	var run []uint64
	for i := range 60 {
		run = append(run, span(i))
	}
	return s, sess, &worldMoves{}, run
}
