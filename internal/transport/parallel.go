package transport

import (
	"slices"
	"sync/atomic"
	"time"
)

// A parallel flush (decision 0362) steps the sessions on the tick's
// goroutine and Config.FlushWorkers-1 worker goroutines, each building its
// own batch with its own flusher. The sessions are taken FlushBlock at a
// time, in order, from a shared counter, so a worker the scheduler wakes
// late takes fewer (none, if the tick's goroutine took them all first: the
// tick then does not wait for it). The tick joins the workers before the
// flush goes on, and hands the batches to the writer in the flushers'
// order: its own, then each worker's. A session is stepped by one flusher,
// so its datagrams keep their order; only the order between clients
// differs from a flush on one goroutine.
//
// What the sessions share stays on the tick's goroutine: the sessions that
// are over are ended after the join (Handler.Leave, the session table, the
// reliable lanes' shared lane.Slots, which Release and the world's Push
// and the acks touch, never PollTo), in the sessions' order; the batches'
// numbers (batchSeq) are set and the batches handed after it. A worker
// reads the tick's shared moves, which do not change during a flush, adds
// to atomic counters, and keeps its own spares.

// FlushBlock is how many sessions a flusher takes at a time (fewer when
// the flushers have fewer than a block each).
const FlushBlock = 16

// Environment variables that set Config.FlushWorkers (an integer) and
// Config.FlushAfter (a Go duration) when those are zero: for A/B load runs
// (decision 0362).
const (
	FlushWorkersEnv = "DLMP_FLUSH_WORKERS"
	FlushAfterEnv   = "DLMP_FLUSH_AFTER"
)

// worker is a flush worker: a goroutine that steps sessions with its own
// flusher when the tick starts a round.
type worker struct {
	flusher
	start chan struct{} // a round may be on (capacity 1)
	done  chan struct{} // the worker finished the round it joined
	state atomic.Int32  // roundIdle, roundHanded, roundJoined, roundCancelled
}

// A worker's state in a round.
const (
	roundIdle      = iota
	roundHanded    // the tick started a round: the worker may join it
	roundJoined    // the worker took part: the tick waits for done
	roundCancelled // the tick finished the round without it
)

// round is what a parallel flush's flushers share.
type round struct {
	next  atomic.Int64 // the next block of sessions to take
	block int          // sessions a block: FlushBlock, fewer when there are few
	now   time.Time
}

// parallel is how many flushers this flush steps the sessions on.
func (t *tickState) parallel() int {
	n, cfg := len(t.sessions), &t.srv.cfg
	if cfg.FlushWorkers <= 1 || n < 2 ||
		cfg.FlushAfter >= 0 && t.stepCost*time.Duration(n) < cfg.FlushAfter {
		return 1
	}
	return min(cfg.FlushWorkers, n)
}

// stepParallel steps every session on n flushers and ends the sessions that
// are over, as many as endsLeft allows, in order.
func (t *tickState) stepParallel(now time.Time, n int) {
	for len(t.workers) < n-1 {
		t.startWorker()
	}
	base := t.batchSeq
	t.round.now = now
	t.round.block = min(FlushBlock, (len(t.sessions)+n-1)/n)
	t.round.next.Store(1) // the first block is the tick's: see below
	ws := t.workers[:n-1]
	for i, w := range ws {
		w.seq = base + uint64(i+2)
		w.state.Store(roundHanded)
		select {
		case w.start <- struct{}{}:
		default: // a token of a round it missed is still there
		}
	}
	t.seq = base + 1
	// The tick's flusher steps the first sessions, as a flush on one
	// goroutine does: the first datagram one sends may be packed after the
	// last one Receive emitted (a ServerHello), here as there.
	start := time.Now()
	t.flusher.stepBlock(&t.round, t.sessions, 0)
	t.flusher.steps(&t.round, t.sessions)
	t.stepCost = time.Since(start) / time.Duration(t.stepped)
	t.stepped = 0
	t.rounds++
	for _, w := range ws {
		if !w.state.CompareAndSwap(roundHanded, roundCancelled) {
			<-w.done
			t.joins++
			t.workerSessions += uint64(w.stepped)
			w.stepped = 0
		}
	}
	over := t.over
	for _, w := range ws {
		over = append(over, w.over...)
		w.over = w.over[:0]
	}
	slices.Sort(over)
	for _, i := range over {
		if t.endsLeft == 0 {
			break
		}
		t.endsLeft--
		t.end(t.sessions[i])
	}
	t.over = over[:0]
}

// steps takes blocks of sessions from r and steps them, keeping the indexes
// of those that are over.
func (f *flusher) steps(r *round, sessions []*Session) {
	for {
		if !f.stepBlock(r, sessions, int(r.next.Add(1)-1)) {
			return
		}
	}
}

// stepBlock steps the sessions of block b, or reports false when there are
// none.
func (f *flusher) stepBlock(r *round, sessions []*Session, b int) bool {
	lo := b * r.block
	if lo >= len(sessions) {
		return false
	}
	part := sessions[lo:min(lo+r.block, len(sessions))]
	f.stepped += len(part)
	for i, sess := range part {
		if f.step(sess, r.now) {
			f.over = append(f.over, lo+i)
		}
	}
	return true
}

// FlushRounds counts the parallel flushes and the workers that took part
// in them (a worker woken after the tick's goroutine had taken every
// session does not); Call it from the world's goroutine only.
// workerSessions counts the sessions the workers stepped in them.
func (s *Server) FlushRounds() (rounds, joins, workerSessions uint64) {
	return s.tick.rounds, s.tick.joins, s.tick.workerSessions
}

// FlushWorkers returns how many goroutines a long Flush steps the sessions
// on and how long a Flush is long (Config.FlushWorkers, FlushAfter).
func (s *Server) FlushWorkers() (int, time.Duration) { return s.cfg.FlushWorkers, s.cfg.FlushAfter }

// startWorker starts one more flush worker; it ends with the Server.
func (t *tickState) startWorker() {
	w := &worker{start: make(chan struct{}, 1), done: make(chan struct{}, 1)}
	w.t, w.srv = t, t.srv
	w.spares.reused = &t.srv.stats.UnreliableReused
	t.workers = append(t.workers, w)
	s := t.srv
	s.wg.Add(1)
	go w.run(s.done, &t.round, &t.sessions)
}

// run is a flush worker's goroutine: it joins each round it wakes in time
// for, stepping the sessions it takes.
func (w *worker) run(done <-chan struct{}, r *round, sessions *[]*Session) {
	defer w.srv.wg.Done()
	for {
		select {
		case <-done:
			return
		case <-w.start:
		}
		if !w.state.CompareAndSwap(roundHanded, roundJoined) {
			continue // the tick finished that round without it
		}
		w.steps(r, *sessions)
		w.done <- struct{}{}
	}
}
