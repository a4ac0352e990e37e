package transport

import (
	"encoding/binary"
	"net/netip"
	"slices"
	"time"

	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// tickState is the part of the Server owned by the tick goroutine.
type tickState struct {
	flusher // the tick's own: Receive's hellos, a flush's steps when not parallel, the ends
	// workers step parts of the sessions in a parallel flush (parallel.go);
	// started on the first one.
	workers []*worker
	round   round  // what a parallel flush's flushers share
	rounds  uint64 // parallel flushes
	joins   uint64 // workers that took part in one (FlushRounds)
	// sessions the workers stepped in them
	workerSessions uint64
	// stepCost is the last Flush's time a session on the tick's goroutine
	// (Config.FlushAfter)
	stepCost time.Duration
	sessions []*Session
	byHello  map[helloKey]*Session
	split    wire.Splitter

	batchSeq         uint64     // batches handed to the writer (their seq; a flush's may skip numbers)
	retransmitsEnded uint64     // retransmissions of the sessions that ended
	causesEnded      [3]uint64  // their fast retransmissions, timeouts and deferred timers
	endsLeft         int        // sessions this Flush may still end
	slots            lane.Slots // the reliable lanes' free slots, shared by the sessions: tick only

	// The tick's shared moves (moves.go, decision 0355).
	moves     *movesBuf   // this tick's copy (nil: none yet)
	movesSrc  *byte       // the world's buffer copied last this tick: its first byte,
	movesLen  int         // its length,
	movesAt   uint64      // and where its copy starts in moves.buf
	movesGen  uint64      // counts the ticks whose moves were copied
	movesFree []*movesBuf // copies handed to batches, oldest first, taken again once written
	movesMade int         // copies made (not taken again)
	inFlush   bool        // in Server.flush: the sessions' packets are copied (shareMoves)
}

type helloKey struct {
	addr  netip.AddrPort
	nonce uint64
}

func (t *tickState) init(s *Server) {
	t.t, t.srv = t, s
	t.byHello = map[helloKey]*Session{}
	t.spares.reused = &s.stats.UnreliableReused
}

// Tick is Receive then Flush: one step of every session at now.
func (s *Server) Tick(now time.Time) {
	s.Receive(now)
	s.Flush(now)
}

// Receive takes the datagrams the reader queued and delivers their packets
// to the Handler. Call it from the world's goroutine only.
func (s *Server) Receive(now time.Time) {
	t := &s.tick
	for {
		select {
		case in := <-s.inbound:
			if in.sess == nil {
				t.hello(in, now)
			} else {
				t.packets(in, now)
			}
			s.pool.Put(in.buf)
		default:
			return
		}
	}
}

// MaxEndsPerFlush bounds the sessions one Flush ends. Each end is the
// world's Leave (the views and labels of everyone who saw the player, the
// gamemode's player_leave): a crowd of clients timing out together made one
// tick of hundreds of milliseconds, which made more clients time out. The
// others end at the next Flushes, in order; meanwhile they send nothing.
// Shutdown ends every session at once.
const MaxEndsPerFlush = 8

// Flush runs every session's timers, ends the sessions that are over (up
// to MaxEndsPerFlush), and sends what the lanes have due. Call it from the
// world's goroutine only.
func (s *Server) Flush(now time.Time) {
	s.flush(now, MaxEndsPerFlush)
}

func (s *Server) flush(now time.Time, maxEnds int) {
	t := &s.tick
	t.endsLeft, t.inFlush = maxEnds, true
	seq := t.batchSeq
	if n := t.parallel(); n > 1 {
		t.stepParallel(now, n)
	} else if len(t.sessions) > 0 {
		start := time.Now()
		for _, sess := range t.sessions {
			t.step(sess, now)
		}
		t.stepCost = time.Since(start) / time.Duration(len(t.sessions))
	}
	t.sessions = slices.DeleteFunc(t.sessions, func(s *Session) bool { return s.ended })
	t.flush()
	if t.batchSeq == seq {
		seq = 0 // no batch: nothing holds this tick's shared moves
	} else {
		seq = t.batchSeq
	}
	t.endMoves(seq)
	t.inFlush = false
	s.nextTick.Store(now.Add(time.Second / time.Duration(s.cfg.TickHz)).UnixNano())
}

// step runs one session's timers and builds its datagrams in the tick's
// own flusher, ending it when it is over and the flush may still end one.
func (t *tickState) step(sess *Session, now time.Time) {
	t.seq = t.batchSeq + 1
	if t.flusher.step(sess, now) && t.endsLeft > 0 {
		t.endsLeft--
		t.end(sess)
	}
}

// Pending is the number of batches of datagrams not yet written.
func (s *Server) Pending() int { return int(s.pending.Load()) }

// Shutdown ends every session with reason (server_shutdown) and sends their
// Disconnects. Call it from the world's goroutine, then Close.
func (s *Server) Shutdown(reason uint8, now time.Time) {
	for _, sess := range s.tick.sessions {
		sess.Kick(reason)
	}
	s.Receive(now)
	s.flush(now, len(s.tick.sessions))
}

// hello answers a ClientHello whose cookie proved the address.
func (t *tickState) hello(in inbound, now time.Time) {
	s := t.srv
	key := helloKey{in.addr, in.nonce}
	if sess := t.byHello[key]; sess != nil && !sess.ended && sess.closing == 0 {
		t.emit(sess.Addr, sess.hello) // a repeated hello gets the same ServerHello
		return
	}
	sess := newSession(s, s.newToken(), in.addr, in.nonce, now)
	h := wire.ServerHello{
		ClientNonce:  in.nonce,
		SessionToken: sess.Token,
		Version:      Version,
		TickHz:       uint8(s.cfg.TickHz),
		KeepaliveMs:  uint16(s.cfg.Keepalive / time.Millisecond),
		TimeoutMs:    uint16(s.cfg.Timeout / time.Millisecond),
		MaxPlayers:   uint16(s.cfg.MaxPlayers),
	}
	if !s.handler.Join(sess, &h) {
		t.emit(in.addr, (&wire.Disconnect{Token: in.nonce, Reason: wire.ReasonServerFull}).Append(nil))
		return
	}
	sess.joined = true
	h.PlayerID = sess.PlayerID
	if err := h.CheckSend(); err != nil {
		s.cfg.Log.Error("transport: the world built an invalid ServerHello", "err", err)
		sess.closing, sess.quiet = wire.ReasonProtocolError, true
		sess.hello = nil
	} else {
		sess.hello = h.Append(nil)
		t.emit(sess.Addr, sess.hello)
		sess.lastSent = now
	}
	s.mu.Lock()
	s.byToken[sess.Token] = sess
	s.mu.Unlock()
	t.byHello[key] = sess
	t.sessions = append(t.sessions, sess)
	s.stats.Joined.Add(1)
}

// packets handles one datagram of a live session.
func (t *tickState) packets(in inbound, now time.Time) {
	sess, s := in.sess, t.srv
	if sess.ended || sess.closing != 0 {
		return
	}
	sess.lastHeard, sess.confirmed = now, true
	for rest := in.buf[:in.n]; len(rest) > 0; {
		p, n, err := t.split.Next(rest)
		if err != nil {
			s.stats.Drop(DropMalformed) // the rest cannot be delimited
			return
		}
		pkt := rest[:n]
		rest = rest[n:]
		if p.Dir() != wire.ClientToServer || p.ID() == wire.IDClientHello {
			s.stats.Drop(DropUnexpected)
			continue
		}
		if binary.LittleEndian.Uint64(pkt[1:9]) != sess.Token {
			s.stats.Drop(DropBadToken)
			continue
		}
		t.dispatch(sess, p, pkt, now)
		if sess.closing != 0 {
			return
		}
	}
}

func (t *tickState) dispatch(sess *Session, p wire.Packet, pkt []byte, now time.Time) {
	s := t.srv
	switch p.ID() {
	case wire.IDClientAck:
		sess.send.OnAck(*p.(*wire.ClientAck), now)
		return
	case wire.IDClientKeepalive:
		sess.echo, sess.echoDue = p.(*wire.ClientKeepalive).Ping, true
		return
	case wire.IDClientDisconnect:
		if p.CheckRecv() != nil {
			s.stats.Drop(DropInvalid)
			return
		}
		sess.closing, sess.quiet = p.(*wire.ClientDisconnect).Reason, true
		return
	}
	switch wire.LaneOf(p.ID()) {
	case wire.LaneGoBackN:
		if !sess.gbn.Offer(pkt, now) {
			return // a duplicate or a future id: re-acked or dropped by the lane
		}
		if p.CheckRecv() != nil {
			s.stats.Drop(DropInvalid) // accepted in order and acked, not acted on
			return
		}
	case wire.LaneUnreliable:
		if p.CheckRecv() != nil {
			s.stats.Drop(DropInvalid)
			return
		}
		if ps, ok := p.(*wire.PlayerSync); ok && !sess.seq.Accept(ps.Seq) {
			s.stats.Drop(DropStale)
			return
		}
	default:
		s.stats.Drop(DropUnexpected)
		return
	}
	s.handler.Packet(sess, p, now)
}

// end finishes a session: a Disconnect unless the client ended it, out of
// the table, Leave to the world.
func (t *tickState) end(sess *Session) {
	s := t.srv
	if !sess.quiet {
		t.emit(sess.Addr, (&wire.Disconnect{Token: sess.Token, Reason: sess.closing}).Append(t.scratch()))
	}
	s.mu.Lock()
	delete(s.byToken, sess.Token)
	s.mu.Unlock()
	delete(t.byHello, helloKey{sess.Addr, sess.Nonce})
	sess.ended = true
	st := sess.send.Stats()
	t.retransmitsEnded += uint64(st.Retransmits)
	t.causesEnded[0] += uint64(st.FastRetransmits)
	t.causesEnded[1] += uint64(st.Timeouts)
	t.causesEnded[2] += uint64(st.Deferred)
	if sess.joined {
		s.stats.Left.Add(1)
		s.handler.Leave(sess, sess.closing)
	}
	sess.send.Release() // its slots to the other sessions
}

// flush hands this tick's datagrams to the writer: the tick's own
// flusher's batch, then each worker's, in order. Flusher i's batch is
// number batchSeq+1+i (the number its sessions' unreliable buffers were
// handed to), so numbers are skipped when a flusher has no batch; they
// only grow, which is all Server.written needs.
func (t *tickState) flush() {
	base, last := t.batchSeq, -1
	for i := -1; i < len(t.workers); i++ {
		f := &t.flusher
		if i >= 0 {
			f = &t.workers[i].flusher
		}
		if f.out == nil {
			continue
		}
		last = i + 1
		f.out.seq = base + uint64(i+2)
		t.srv.put(f.out)
		f.out, f.last, f.lastN = nil, nil, 0
	}
	if last >= 0 {
		t.batchSeq = base + uint64(last+1)
	}
}

// LaneTotals sums the sessions' reliable lanes: retransmissions since they
// started, events queued (sent and unacknowledged, or waiting), and the
// deepest one session's queue. Call it from the world's goroutine only.
func (s *Server) LaneTotals() (retransmits uint64, queued, deepest int) {
	retransmits = s.tick.retransmitsEnded
	for _, sess := range s.tick.sessions {
		if sess.ended {
			continue
		}
		retransmits += uint64(sess.send.Stats().Retransmits)
		q := s.cfg.SendQueue - sess.send.Free()
		queued += q
		deepest = max(deepest, q)
	}
	return retransmits, queued, deepest
}

// FreeSlots is how many free reliable-lane slots the sessions share (see
// lane.Slots). Call it from the world's goroutine only.
func (s *Server) FreeSlots() int { return s.tick.slots.Len() }

// RetransmitCauses sums the sessions' reliable lanes since they started:
// retransmissions flagged by acks (fast), by timers (timeouts), and
// expired timers re-armed past a Poll's burst (deferred). Call it from the
// world's goroutine only.
func (s *Server) RetransmitCauses() (fast, timeouts, deferred uint64) {
	c := s.tick.causesEnded
	for _, sess := range s.tick.sessions {
		if sess.ended {
			continue
		}
		st := sess.send.Stats()
		c[0] += uint64(st.FastRetransmits)
		c[1] += uint64(st.Timeouts)
		c[2] += uint64(st.Deferred)
	}
	return c[0], c[1], c[2]
}
