package transport

import "sync/atomic"

// MaxSpares bounds the unreliable buffers the tick keeps for the sessions
// while the writer is two or more ticks behind (Session.swapUnreliable):
// one a session for a crowd of 1000 and a second late tick, each a
// session's own packets and its parts (~1 KB in a crowd, decision 0355).
// Past it a buffer left to the writer is left to the garbage collector.
const MaxSpares = 2048

// spares are the sessions' unreliable buffers that were left to the writer
// (their batches not yet written when their session needed a buffer), in
// the order of their batches, for the sessions to take again once their
// batch is written. A new buffer instead would take the next tick's packets
// into fresh pages: one page fault a session, a thousand in a tick, when a
// busy writer falls two ticks behind (decision 0315); the tick drops a
// session's unreliable datagrams rather than make one (0318). Owned by the
// tick goroutine; the nil *spares keeps nothing.
type spares struct {
	bufs []heldBuf // ring, by batch, oldest first from head
	head int
	n    int

	reused *atomic.Uint64 // counter (Stats): buffers taken from the ring
	made   int            // new buffers take made (no ring, or none written)
}

// put keeps h, whose batch is h.seq, unless the ring is full, in the order
// of the batches: the buffers come mostly in that order (each session's
// older held one, tick after tick), and one that comes late (a session
// that skipped ticks) is moved back past the newer ones, so the oldest,
// which take looks at, is the first written.
func (sp *spares) put(h heldBuf) {
	if sp == nil || h.buf == nil && h.parts == nil {
		return
	}
	if sp.bufs == nil {
		sp.bufs = make([]heldBuf, MaxSpares)
	}
	if sp.n == len(sp.bufs) {
		return
	}
	i := sp.n
	for ; i > 0; i-- { // nearly sorted: a step or two at most
		prev := &sp.bufs[(sp.head+i-1)%len(sp.bufs)]
		if prev.seq <= h.seq {
			break
		}
		sp.bufs[(sp.head+i)%len(sp.bufs)] = *prev
	}
	sp.bufs[(sp.head+i)%len(sp.bufs)] = h
	sp.n++
}

// ready reports whether take would return a kept buffer.
func (sp *spares) ready(written uint64) bool {
	return sp != nil && sp.n > 0 && sp.bufs[sp.head].seq <= written
}

// take returns the oldest kept buffers when their batch is written (seq at
// most written), else new ones of capacities c and cp (parts).
func (sp *spares) take(written uint64, c, cp int) heldBuf {
	if sp == nil {
		return heldBuf{buf: make([]byte, 0, c), parts: make([]uint64, 0, cp)}
	}
	if sp.ready(written) {
		h := sp.bufs[sp.head]
		sp.bufs[sp.head] = heldBuf{}
		sp.head = (sp.head + 1) % len(sp.bufs)
		sp.n--
		if sp.reused != nil {
			sp.reused.Add(1)
		}
		return heldBuf{buf: h.buf[:0], parts: h.parts[:0]}
	}
	sp.made++
	return heldBuf{buf: make([]byte, 0, c), parts: make([]uint64, 0, cp)}
}
