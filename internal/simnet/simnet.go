// Package simnet is a deterministic simulated datagram link for tests and
// benchmarks: latency, jitter, loss, duplication, reordering and an MTU,
// driven by a seeded random source and by virtual time that the caller
// passes in. No sockets, no goroutines, no clock: the same seed and the
// same calls give the same deliveries, so loss tests are exact and fast.
//
// A Link carries datagrams one way; a pair of Links makes a connection.
// A Link is not safe for concurrent use.
package simnet

import (
	"container/heap"
	"math/rand/v2"
	"time"
)

// Config describes one direction of a link. The zero value is a perfect
// link with no delay.
type Config struct {
	Latency   time.Duration // one-way base delay
	Jitter    time.Duration // extra delay, uniform in [0, Jitter)
	Loss      float64       // probability a datagram is lost
	Duplicate float64       // probability a datagram is delivered twice
	Reorder   float64       // probability a datagram is held back ReorderDelay
	// ReorderDelay is how long a reordered datagram is held back;
	// Latency/2 when zero.
	ReorderDelay time.Duration
	MTU          int // datagrams above it are dropped; 0 = no limit
}

// Stats counts what a Link did.
type Stats struct {
	Sent       int // datagrams given to Send
	Bytes      int // bytes given to Send
	Delivered  int // datagrams handed out, duplicates included
	Lost       int
	Duplicated int
	Reordered  int
	TooBig     int // dropped for the MTU
}

type datagram struct {
	at  time.Time
	seq uint64 // tie-break: delivery in send order at equal times
	buf []byte
}

// queue is a min-heap of datagrams by (at, seq).
type queue []*datagram

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if !q[i].at.Equal(q[j].at) {
		return q[i].at.Before(q[j].at)
	}
	return q[i].seq < q[j].seq
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(*datagram)) }
func (q *queue) Pop() any {
	old := *q
	d := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	return d
}

// Link is one direction of a simulated connection.
type Link struct {
	cfg   Config
	rng   *rand.Rand
	q     queue
	pool  []*datagram
	seq   uint64
	stats Stats
}

// New returns a link with the given behaviour and random seed.
func New(cfg Config, seed uint64) *Link {
	if cfg.ReorderDelay == 0 {
		cfg.ReorderDelay = cfg.Latency / 2
	}
	return &Link{cfg: cfg, rng: rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15))}
}

// SetConfig changes the link's behaviour for datagrams sent from now on.
func (l *Link) SetConfig(cfg Config) {
	if cfg.ReorderDelay == 0 {
		cfg.ReorderDelay = cfg.Latency / 2
	}
	l.cfg = cfg
}

// Stats returns the counters.
func (l *Link) Stats() Stats { return l.stats }

// InFlight returns how many datagrams are on the wire.
func (l *Link) InFlight() int { return len(l.q) }

// Send puts a copy of b on the wire at now.
func (l *Link) Send(now time.Time, b []byte) {
	l.stats.Sent++
	l.stats.Bytes += len(b)
	if l.cfg.MTU > 0 && len(b) > l.cfg.MTU {
		l.stats.TooBig++
		return
	}
	if l.cfg.Loss > 0 && l.rng.Float64() < l.cfg.Loss {
		l.stats.Lost++
		return
	}
	copies := 1
	if l.cfg.Duplicate > 0 && l.rng.Float64() < l.cfg.Duplicate {
		copies = 2
		l.stats.Duplicated++
	}
	for range copies {
		at := now.Add(l.cfg.Latency)
		if l.cfg.Jitter > 0 {
			at = at.Add(time.Duration(l.rng.Int64N(int64(l.cfg.Jitter))))
		}
		if l.cfg.Reorder > 0 && l.rng.Float64() < l.cfg.Reorder {
			at = at.Add(l.cfg.ReorderDelay)
			l.stats.Reordered++
		}
		var d *datagram
		if n := len(l.pool); n > 0 {
			d, l.pool = l.pool[n-1], l.pool[:n-1]
		} else {
			d = new(datagram)
		}
		d.at, d.seq, d.buf = at, l.seq, append(d.buf[:0], b...)
		l.seq++
		heap.Push(&l.q, d)
	}
}

// Next returns when the next datagram arrives, or the zero time.
func (l *Link) Next() time.Time {
	if len(l.q) == 0 {
		return time.Time{}
	}
	return l.q[0].at
}

// Deliver hands every datagram due at or before now to fn, in arrival
// order. fn must not keep the slice.
func (l *Link) Deliver(now time.Time, fn func(b []byte)) {
	for len(l.q) > 0 && !l.q[0].at.After(now) {
		d := heap.Pop(&l.q).(*datagram)
		l.stats.Delivered++
		fn(d.buf)
		l.pool = append(l.pool, d)
	}
}
