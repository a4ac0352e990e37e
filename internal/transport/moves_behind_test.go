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
		s.flush(now, MaxEndsPerFlush)
		gathers := 0
		select {
		case b := <-s.out: // taken, never written: the writer stays behind
			gathers = len(b.gather)
		default: // nothing emitted
		}
		if tick == 3 && gathers != 0 {
			t.Errorf("tick 3 (writer two behind): %d gather messages emitted, want 0", gathers)
		}
		now = now.Add(50 * time.Millisecond)
	}
	if got := s.stats.UnreliableDropped.Load(); got != 3 {
		t.Errorf("UnreliableDropped = %d, want 3 (the third tick's run, 3 datagrams)", got)
	}
}

// A run still a run at the step (the tick's copy of the moves was not new
// for the writer's lag: no copy was kept before) while the session's own
// buffers all wait for the writer: the step drops it, counted by the
// datagrams it would have made (packRun), as decision 0318 counts them.
func TestWriterBehindDropsUnpackedRun(t *testing.T) {
	s, sess, w, run := behindFixture(t)
	now := time.Unix(1000, 0)
	for tick := 1; tick <= 2; tick++ { // the session's own datagrams only
		sess.lastHeard = now
		sess.SendUnreliable(make([]byte, 100))
		s.flush(now, MaxEndsPerFlush)
		<-s.out // never written
		now = now.Add(50 * time.Millisecond)
	}
	w.encode(3, 100)
	sess.lastHeard = now
	sess.SendUnreliableSpans(w.buf, run)
	if s.tick.movesBehind || sess.runN == 0 {
		t.Fatalf("movesBehind %v, runN %d: want the run left as a run", s.tick.movesBehind, sess.runN)
	}
	before := s.stats.UnreliableDropped.Load()
	s.flush(now, MaxEndsPerFlush)
	if got := s.stats.UnreliableDropped.Load() - before; got != 3 {
		t.Errorf("dropped %d, want 3 (the run's 60 moves of 42 bytes: 3 datagrams)", got)
	}
	select {
	case b := <-s.out:
		t.Errorf("tick 3 (writer two behind) emitted %d messages, want none", len(b.msgs))
	default:
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
