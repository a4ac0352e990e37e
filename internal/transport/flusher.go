package transport

import (
	"net/netip"
	"time"

	"dlmp/internal/conn"
	"dlmp/internal/wire"
)

// flusher is the state one flush worker builds its datagrams with: its
// batch (buffers, messages), its emit state (the datagram the next packet
// may be packed after), its scratch, and its spares. The tick's own
// flusher (tickState.flusher) steps the sessions when the flush is not
// parallel, and also takes the hellos Receive answers and the ends'
// Disconnects; a worker's (parallel.go) steps its part of the sessions
// during a parallel flush only. A flusher is used by one goroutine at a
// time: the tick's, or its worker's between the flush's start and join.
type flusher struct {
	t   *tickState // read only by a worker: the tick's shared moves
	srv *Server

	out        *batch // datagrams being built this tick
	last       *buffer
	lastN      int
	lastAddr   netip.AddrPort
	laneBuf    *buffer  // the buffer laneBuffer gave last
	scratchBuf [64]byte // control packets are encoded here; emit copies them

	seq     uint64 // the batch number out gets when handed: the sessions' unreliable buffers are held by it
	spares  spares // unreliable buffers left to the writer, for the sessions to take again
	over    []int  // the sessions (indexes) a parallel step found over, for the tick to end after the join
	stepped int    // sessions a worker stepped in a parallel flush (FlushRounds)
}

// step runs one session's timers and builds its datagrams into f's
// batch, reporting whether the session is over (closing): the caller ends
// it (tickState.end), never a flush worker. Besides the session it touches
// only f, the tick's shared moves (read) and atomic counters: sessions on
// different flushers are stepped in parallel (parallel.go).
func (f *flusher) step(sess *Session, now time.Time) (over bool) {
	s := f.srv
	if sess.closing == 0 {
		switch {
		case !sess.confirmed && now.Sub(sess.created) > UnconfirmedTTL,
			now.Sub(sess.lastHeard) > s.cfg.Timeout:
			sess.closing = wire.ReasonTimeout
		case sess.send.Dead() != nil:
			sess.closing = wire.ReasonNoAcks
		}
	}
	if sess.closing != 0 {
		return true
	}
	sent := false
	// The lane packs its datagrams straight into the batch's buffers. PollTo
	// touches no lane.Slots (only Push, OnAck and Release do).
	sess.send.PollTo(now, f.laneBuffer, func(d []byte) {
		f.emitLane(sess.Addr, d)
		sent = true
	})
	if a, ok := sess.gbn.Ack(now); ok {
		f.emit(sess.Addr, a.Append(f.scratch()))
		sent = true
	}
	if sess.echoDue {
		f.emit(sess.Addr, (&wire.ServerKeepalive{Echo: sess.echo}).Append(f.scratch()))
		sess.echoDue, sent = false, true
	}
	if n := len(sess.unrelEnd); n > 0 {
		written := s.written.Load()
		switch {
		case sess.sharedGen != 0 && sess.sharedGen != f.t.movesGen+1:
			// Shared moves of an earlier tick, whose copy may be written
			// over: never sent (shareMoves keeps this from happening).
			s.stats.UnreliableDropped.Add(uint64(n))
			sess.dropUnreliable()
		case sess.unreliableRoom(written, &f.spares):
			f.emitUnreliable(sess)
			sent = true
			sess.swapUnreliable(f.seq, written, &f.spares)
		default:
			// The writer is two ticks behind this session and every spare
			// waits for it too: this tick's unreliable datagrams are
			// dropped, the buffer kept (decision 0318).
			s.stats.UnreliableDropped.Add(uint64(n))
			sess.dropUnreliable()
		}
	}
	if !sent && now.Sub(sess.lastSent) >= s.cfg.Keepalive {
		f.emit(sess.Addr, (&wire.ServerKeepalive{}).Append(f.scratch()))
		sent = true
	}
	if sent {
		sess.lastSent = now
	}
	return false
}

// scratch is a small reusable buffer for control packets; emit copies.
func (f *flusher) scratch() []byte { return f.scratchBuf[:0] }

// emit adds one packet or lane datagram for addr to this tick's output,
// packing it after the previous one to the same address when it fits.
func (f *flusher) emit(addr netip.AddrPort, d []byte) {
	if f.out == nil {
		f.out = f.srv.getBatch()
	}
	if f.last != nil && f.lastAddr == addr && f.lastN+len(d) <= wire.MaxDatagram {
		f.lastN += copy(f.last[f.lastN:], d)
		f.out.msgs[len(f.out.msgs)-1].Buf = f.last[:f.lastN]
		return
	}
	buf := f.srv.pool.Get().(*buffer)
	n := copy(buf[:], d)
	f.out.bufs = append(f.out.bufs, buf)
	f.out.msgs = append(f.out.msgs, conn.Message{Buf: buf[:n], Addr: addr})
	f.last, f.lastN, f.lastAddr = buf, n, addr
}

// laneBuffer returns an empty pooled buffer for a reliable lane's next
// datagram, the batch's from now on (Sender.PollTo).
func (f *flusher) laneBuffer() []byte {
	if f.out == nil {
		f.out = f.srv.getBatch()
	}
	buf := f.srv.pool.Get().(*buffer)
	f.out.bufs = append(f.out.bufs, buf)
	f.laneBuf = buf
	return buf[:0]
}

// emitLane adds the lane datagram d, packed in the buffer laneBuffer gave
// last, for addr: what the session sends next this tick may be packed
// after it.
func (f *flusher) emitLane(addr netip.AddrPort, d []byte) {
	f.out.msgs = append(f.out.msgs, conn.Message{Buf: d, Addr: addr})
	f.last, f.lastN, f.lastAddr = f.laneBuf, len(d), addr
}

// emitUnreliable adds a session's unreliable datagrams of this tick: the
// first packed after the previous datagram to the same address when it
// fits, then each run of datagrams of one size (its last one may be
// shorter, at most conn.MaxSegments) as one message that the writer sends
// as one UDP GSO message (decision 0338). Their bytes are handed over
// where they are (no copy), as a gather list when a run holds pieces of
// the shared moves (decision 0355): the session's buffers stay valid until
// the writer has written this tick's batch (Session.swapUnreliable), the
// shared moves too (endMoves).
func (f *flusher) emitUnreliable(sess *Session) {
	addr, ends, pend := sess.Addr, sess.unrelEnd, sess.partEnd
	start, i, p := 0, 0, 0
	if f.last != nil && f.lastAddr == addr && f.lastN+ends[0] <= wire.MaxDatagram {
		f.emitParts(sess, sess.parts[:pend[0]], 1, 0, true)
		start, i, p = ends[0], 1, pend[0]
	}
	for i < len(ends) {
		seg, j := ends[i]-start, i+1
		for j < len(ends) && j-i < conn.MaxSegments && ends[j]-ends[j-1] == seg {
			j++
		}
		if j < len(ends) && j-i < conn.MaxSegments && ends[j]-ends[j-1] < seg {
			j++ // a shorter datagram ends the run
		}
		if j-i == 1 {
			seg = 0
		}
		f.emitParts(sess, sess.parts[p:pend[j-1]], j-i, seg, false)
		start, i, p = ends[j-1], j, pend[j-1]
	}
}

// emitParts adds the datagrams (dgrams of seg bytes, the last possibly
// shorter) made of a session's parts: packed after the previous datagram
// (after), else as a message of their own. Parts all of the session's
// unrel are one piece of it (they are there in order, back to back):
// copied when packed after, else handed over as they are. Parts with
// pieces of the shared moves go to the writer as they are (batch.gather),
// which copies them as it sends them (Server.write).
func (f *flusher) emitParts(sess *Session, parts []uint64, dgrams, seg int, after bool) {
	own := true
	for _, p := range parts {
		if p&partShared != 0 {
			own = false
			break
		}
	}
	if own {
		first, last := parts[0], parts[len(parts)-1]
		d := sess.unrel[uint32(first) : uint32(last)+uint32(last>>32&partLen)]
		if after {
			f.emit(sess.Addr, d)
		} else {
			f.emitShared(sess.Addr, d, seg)
		}
		return
	}
	if !after {
		f.emitShared(sess.Addr, nil, seg)
	}
	b := f.out
	b.gather = append(b.gather, gatherRef{
		msg: len(b.msgs) - 1, head: after, extra: dgrams - 1,
		parts: parts, own: sess.unrel, shared: f.t.sharedMoves(),
	})
	f.last, f.lastN = nil, 0 // nothing is packed after it: the memory is not the batch's
}

// emitShared adds d, one datagram or datagrams of seg bytes (the last one
// possibly shorter), for addr, handed to the writer as it is (no copy): it
// must stay valid until the writer has written this tick's batch.
func (f *flusher) emitShared(addr netip.AddrPort, d []byte, seg int) {
	if f.out == nil {
		f.out = f.srv.getBatch()
	}
	f.out.msgs = append(f.out.msgs, conn.Message{Buf: d, Addr: addr, Seg: seg})
	f.last, f.lastN = nil, 0 // nothing is packed after it: the memory is not the batch's
}
