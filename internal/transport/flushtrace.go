package transport

import (
	"bufio"
	"fmt"
	"log/slog"
	"os"
	"time"

	"dlmp/internal/hoststeal"
	"dlmp/internal/threadcpu"
)

// FlushTraceEnv names a file that Listen opens for a trace of every Flush:
// one line a Flush with its wall and thread time, the thread's page faults
// and context switches, the machine's steal time, and what it did
// (sessions, lane datagrams and retransmissions, keepalives, messages,
// batches and buffers made). For finding what a slow flush is made of in a
// load run (issue 7); nothing is traced when it is unset.
const FlushTraceEnv = "DLMP_FLUSH_TRACE"

// flushCounts is what one Flush did, counted as it goes: plain counters of
// the tick's, reset at each Flush's start.
type flushCounts struct {
	sessions    int // sessions stepped
	lanePolls   int // sessions whose lane emitted a datagram
	laneDgrams  int // lane datagrams
	laneBytes   int
	retransmits int // lane retransmissions (traced only)
	timeouts    int // of which on a timer (traced only)
	gbnAcks     int
	echoes      int
	keepalives  int
	unrelSess   int // sessions with unreliable datagrams emitted
	msgsGrown   int // the batch's message list grown
}

// flushTrace writes one line a Flush (FlushTraceEnv). The thread's
// counters (cpu_us, minflt, nivcsw, nvcsw) are -1 when the Flush ended on
// another thread than it began (a tick goroutine not locked to its thread:
// dlmp serve without --tick-fifo); new_batch and bufs_new count what was
// made since the last Flush's end, in a Receive too.
type flushTrace struct {
	f        *os.File
	w        *bufio.Writer
	n        int
	start    time.Time
	ru0      usage
	tid0     int
	st0      int64
	batches0 uint64 // the tick's batches made at the last Flush's end
	pool0    uint64 // the pool's buffers made at the last Flush's end
}

// openFlushTrace opens the file FlushTraceEnv names, nil when it is unset
// or cannot be created (said in log).
func openFlushTrace(log *slog.Logger) *flushTrace {
	name := os.Getenv(FlushTraceEnv)
	if name == "" {
		return nil
	}
	f, err := os.Create(name)
	if err != nil {
		log.Warn("transport: no flush trace", "env", FlushTraceEnv, "err", err)
		return nil
	}
	w := bufio.NewWriterSize(f, 1<<16)
	fmt.Fprintln(w, "unix_ms wall_us cpu_us minflt nivcsw nvcsw steal_ms sessions lane_polls lane_dgrams lane_bytes retransmits timeouts gbn_acks echoes keepalives unrel_sess msgs new_batch msgs_grown bufs_new")
	return &flushTrace{f: f, w: w}
}

func (tr *flushTrace) begin() {
	tr.st0 = stealMs()
	tr.tid0 = threadcpu.ID()
	tr.ru0 = threadUsage()
	tr.start = time.Now()
}

func (tr *flushTrace) end(c *flushCounts, msgs int, batches, pool uint64) {
	wall := time.Since(tr.start)
	ru := threadUsage()
	st := stealMs()
	cpu, minflt, nivcsw, nvcsw := (ru.cpu - tr.ru0.cpu).Microseconds(), ru.minflt-tr.ru0.minflt, ru.nivcsw-tr.ru0.nivcsw, ru.nvcsw-tr.ru0.nvcsw
	if threadcpu.ID() != tr.tid0 {
		cpu, minflt, nivcsw, nvcsw = -1, -1, -1, -1
	}
	fmt.Fprintln(tr.w, tr.start.UnixMilli(), wall.Microseconds(), cpu, minflt, nivcsw, nvcsw, st-tr.st0,
		c.sessions, c.lanePolls, c.laneDgrams, c.laneBytes, c.retransmits, c.timeouts, c.gbnAcks,
		c.echoes, c.keepalives, c.unrelSess, msgs, batches-tr.batches0, c.msgsGrown, pool-tr.pool0)
	tr.batches0, tr.pool0 = batches, pool
	if tr.n++; tr.n%100 == 0 {
		tr.w.Flush()
	}
}

func (tr *flushTrace) close() {
	if tr != nil {
		tr.w.Flush()
		tr.f.Close()
	}
}

// usage is the calling thread's resource use.
type usage struct {
	cpu                   time.Duration
	minflt, nivcsw, nvcsw int64
}

// stealMs is the machine's steal time so far in milliseconds, 0 when
// unknown.
func stealMs() int64 {
	d, _ := hoststeal.Total()
	return d.Milliseconds()
}
