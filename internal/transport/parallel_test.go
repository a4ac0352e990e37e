package transport

import (
	"net/netip"
	"runtime"
	"testing"
	"time"
)

// A flush goes parallel only when it would take FlushAfter on one
// goroutine (the last flush's time a session times the sessions), with
// two sessions at least and never on more flushers than sessions.
func TestParallelWhenLong(t *testing.T) {
	for _, c := range []struct {
		workers, sessions int
		cost, after       time.Duration
		want              int
	}{
		{1, 1000, time.Millisecond, -1, 1},
		{2, 1000, 0, -1, 2},
		{2, 1, 0, -1, 1},
		{3, 2, 0, -1, 2},
		{2, 1000, time.Microsecond, 2 * time.Millisecond, 1},
		{2, 1000, 2 * time.Microsecond, 2 * time.Millisecond, 2},
		{2, 999, 2 * time.Microsecond, 2 * time.Millisecond, 1},
		{2, 1000, 0, time.Millisecond, 1}, // no flush measured yet
	} {
		s := &Server{cfg: Config{FlushWorkers: c.workers, FlushAfter: c.after}}
		s.tick.init(s)
		s.tick.sessions = make([]*Session, c.sessions)
		s.tick.stepCost = c.cost
		if got := s.tick.parallel(); got != c.want {
			t.Errorf("%d workers, %d sessions at %v each, after %v: got %d flushers, want %d",
				c.workers, c.sessions, c.cost, c.after, got, c.want)
		}
	}
}

// A worker that does not wake before the tick's goroutine has stepped
// every session is not waited for, and takes no part in that flush even
// when it wakes later (on the round's token it left); later flushes step
// every session once whether it joins them or not. Fails when the tick
// waits for a worker that never ran (the test hangs), or a late worker
// steps a finished round's sessions.
func TestParallelWorkerLate(t *testing.T) {
	s, _ := tickFixture(t)
	s.cfg.FlushWorkers, s.cfg.FlushAfter = 2, -1
	s.done = make(chan struct{})
	now := time.Unix(1000, 0)
	for i := range 4 {
		sess := newSession(s, uint64(i+1), netip.MustParseAddrPort("127.0.0.1:9"), uint64(i+1), now)
		sess.confirmed = true
		s.tick.sessions = append(s.tick.sessions, sess)
	}
	// A worker whose goroutine is not running yet.
	w := &worker{start: make(chan struct{}, 1), done: make(chan struct{}, 1)}
	w.t, w.srv = &s.tick, s
	s.tick.workers = append(s.tick.workers, w)
	flush := func() {
		now = now.Add(time.Second) // a keepalive each
		for _, sess := range s.tick.sessions {
			sess.lastHeard = now
		}
		s.Flush(now)
		for len(s.out) > 0 {
			s.recycle(<-s.out)
		}
	}
	flush()
	if rounds, joins, stepped := s.FlushRounds(); rounds != 1 || joins != 0 || stepped != 0 {
		t.Fatalf("got %d rounds, %d joins, %d sessions stepped by the worker; want 1, 0, 0", rounds, joins, stepped)
	}
	if w.out != nil || len(w.start) != 1 {
		t.Fatalf("the late worker's batch %v, tokens %d; want none, 1 left", w.out, len(w.start))
	}
	for _, sess := range s.tick.sessions {
		if sess.lastSent != now {
			t.Fatal("a session was not stepped")
		}
	}
	s.wg.Add(1)
	go w.run(s.done, &s.tick.round, &s.tick.sessions)
	defer func() { close(s.done); s.wg.Wait() }()
	for len(w.start) > 0 { // it wakes on the stale token: nothing to join
		runtime.Gosched()
	}
	if w.stepped != 0 || w.out != nil {
		t.Fatalf("the late worker stepped %d sessions of a finished flush", w.stepped)
	}
	for range 20 { // joined or not, every session is stepped once a flush
		flush()
		for _, sess := range s.tick.sessions {
			if sess.lastSent != now {
				t.Fatal("a session was not stepped")
			}
		}
	}
	if rounds, _, _ := s.FlushRounds(); rounds != 21 {
		t.Errorf("got %d parallel flushes, want 21", rounds)
	}
}
