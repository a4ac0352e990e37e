package transport

import (
	"encoding/binary"
	"net/netip"
	"slices"
	"time"

	"dlmp/internal/conn"
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// tickState is the part of the Server owned by the tick goroutine.
type tickState struct {
	srv      *Server
	sessions []*Session
	byHello  map[helloKey]*Session
	split    wire.Splitter
	out      *batch // datagrams being built this tick
	last     []byte // the datagram being packed, at the end of out's arena: emit packs after it
	lastAddr netip.AddrPort

	batchSeq         uint64     // batches handed to the writer (their seq)
	scratchBuf       [64]byte   // control packets are encoded here; emit copies them
	retransmitsEnded uint64     // retransmissions of the sessions that ended
	causesEnded      [3]uint64  // their fast retransmissions, timeouts and deferred timers
	endsLeft         int        // sessions this Flush may still end
	spares           spares     // unreliable buffers left to the writer, for the sessions to take again
	slots            lane.Slots // the reliable lanes' free slots, shared by the sessions

	// The tick's shared moves (moves.go, decision 0355).
	moves       *movesBuf   // this tick's copy (nil: none yet)
	movesSrc    *byte       // the world's buffer copied last this tick: its first byte,
	movesLen    int         // its length,
	movesAt     uint64      // and where its copy starts in moves.buf
	movesGen    uint64      // counts the ticks whose moves were copied
	movesFree   []*movesBuf // copies handed to batches, oldest first, taken again once written
	movesMade   int         // copies made (not taken again)
	inFlush     bool        // in Server.flush: the sessions' packets are copied (shareMoves)
	ends        []int       // emitSession's scratch: a run's datagram ends, in bytes
	pend        []int       // and in parts
	movesBehind bool        // this tick's copy is new because the writer is behind

	fc flushCounts // what this Flush did (flushtrace.go)
	// batchesMade counts the tick's batches made (none free) since the
	// start, for the trace's new_batch: a Receive makes them too.
	batchesMade uint64
	outCap      int         // the message list's room when out was taken
	batches     []*batch    // the tick's written batches, the last written last (getBatch)
	noWarm      bool        // warmSteps does nothing: its benchmark's baseline
	warmSum     uint32      // the sum of warmSteps' loads, kept so that the compiler keeps them
	trace       *flushTrace // nil unless FlushTraceEnv is set
}

type helloKey struct {
	addr  netip.AddrPort
	nonce uint64
}

func (t *tickState) init(s *Server) {
	t.srv = s
	t.byHello = map[helloKey]*Session{}
	t.spares.reused = &s.stats.UnreliableReused
}

// Tick is Receive then Flush: one step of every session at now.
func (s *Server) Tick(now time.Time) {
	s.Receive(now)
	s.Flush(now)
}

// Receive takes the datagrams the reader queued and delivers their packets
// to the Handler. With Config.WarmSlots it then loads the reliable-lane
// slots their acks freed, which the next tick's pushes take first
// (lane.Slots.Warm, decision 0374; off by default: in the load run the
// pushes' stores were no cheaper for it). Call it from the world's
// goroutine only.
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
			if s.cfg.WarmSlots {
				t.slots.Warm()
			}
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
	if t.trace != nil {
		t.trace.begin()
	}
	t.fc = flushCounts{}
	t.endsLeft, t.inFlush = maxEnds, true
	for i, sess := range t.sessions {
		if i%FlushWarmAhead == 0 {
			t.warmSteps(t.sessions[i:min(i+FlushWarmAhead, len(t.sessions))])
		}
		t.step(sess, now)
	}
	t.sessions = slices.DeleteFunc(t.sessions, func(s *Session) bool { return s.ended })
	seq, msgs := t.batchSeq, 0
	if t.out != nil {
		msgs = len(t.out.msgs)
		if cap(t.out.msgs) > t.outCap {
			t.fc.msgsGrown++
		}
	}
	t.flush()
	if t.batchSeq == seq {
		seq = 0 // no batch: nothing holds this tick's shared moves
	} else {
		seq = t.batchSeq
	}
	t.endMoves(seq)
	t.inFlush = false
	if t.trace != nil {
		t.trace.end(&t.fc, msgs, t.batchesMade, s.poolNew.Load())
	}
	s.nextTick.Store(now.Add(time.Second / time.Duration(s.cfg.TickHz)).UnixNano())
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
		SyncHz:       uint8(s.cfg.SyncHz),
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

// step runs one session's timers and builds its datagrams.
func (t *tickState) step(sess *Session, now time.Time) {
	s := t.srv
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
		if t.endsLeft > 0 {
			t.endsLeft--
			t.end(sess)
		}
		return
	}
	t.fc.sessions++
	var st0 lane.SenderStats
	if t.trace != nil {
		st0 = sess.send.Stats()
	}
	sent := false
	dg := t.fc.laneDgrams
	// The lane packs its datagrams straight into the batch's buffers.
	sess.send.PollTo(now, t.laneBuffer, func(d []byte) {
		t.emitLane(sess.Addr, d)
		sent = true
	})
	if t.fc.laneDgrams != dg {
		t.fc.lanePolls++
	}
	if t.trace != nil {
		st := sess.send.Stats()
		t.fc.retransmits += st.Retransmits - st0.Retransmits
		t.fc.timeouts += st.Timeouts - st0.Timeouts
	}
	if a, ok := sess.gbn.Ack(now); ok {
		t.emit(sess.Addr, a.Append(t.scratch()))
		sent = true
		t.fc.gbnAcks++
	}
	if sess.echoDue {
		t.emit(sess.Addr, (&wire.ServerKeepalive{Echo: sess.echo}).Append(t.scratch()))
		sess.echoDue, sent = false, true
		t.fc.echoes++
	}
	if n := len(sess.unrelEnd); n > 0 || sess.runN > 0 {
		written := t.srv.written.Load()
		switch {
		case sess.sharedGen != 0 && sess.sharedGen != t.movesGen+1:
			// Shared moves of an earlier tick, whose copy may be written
			// over: never sent (SendUnreliableSpans marks a session only when it
			// queued shared parts, and every step sends or drops them). A
			// run not packed is counted as one datagram: its list was the
			// earlier tick's, whose packet lengths are gone with it.
			s.stats.UnreliableDropped.Add(uint64(n + min(int(sess.runN), 1)))
			sess.dropUnreliable()
		case sess.unreliableRoom(written, &t.spares):
			t.fc.unrelSess++
			t.emitSession(sess)
			sent = true
			sess.swapUnreliable(t.batchSeq+1, written, &t.spares)
		default:
			// The writer is two ticks behind this session and every spare
			// waits for it too: this tick's unreliable datagrams are
			// dropped, the buffer kept (decision 0318).
			if sess.runN > 0 {
				sess.packRun() // to count them
			}
			s.stats.UnreliableDropped.Add(uint64(len(sess.unrelEnd)))
			sess.dropUnreliable()
		}
	}
	if !sent && now.Sub(sess.lastSent) >= s.cfg.Keepalive {
		t.emit(sess.Addr, (&wire.ServerKeepalive{}).Append(t.scratch()))
		sent = true
		t.fc.keepalives++
	}
	if sent {
		sess.lastSent = now
	}
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

// scratch is a small reusable buffer for control packets; emit copies.
func (t *tickState) scratch() []byte { return t.scratchBuf[:0] }

// emit adds one packet or lane datagram for addr to this tick's output,
// packing it after the previous one to the same address when it fits.
func (t *tickState) emit(addr netip.AddrPort, d []byte) {
	if t.out == nil {
		t.getBatch()
	}
	if t.last != nil && t.lastAddr == addr && len(t.last)+len(d) <= wire.MaxDatagram {
		t.last = append(t.last, d...) // at the arena's tail: in its room
		t.out.arena.use(len(d))
		t.out.msgs[len(t.out.msgs)-1].Buf = t.last
		return
	}
	buf := append(t.out.arena.next(), d...)
	t.out.arena.use(len(d))
	t.out.msgs = append(t.out.msgs, conn.Message{Buf: buf, Addr: addr})
	t.last, t.lastAddr = buf, addr
}

// laneBuffer returns an empty buffer at the end of the batch's arena for a
// reliable lane's next datagram (Sender.PollTo): its room is a datagram's,
// and it is the arena's only when emitLane takes it (a datagram abandoned
// by a link found dead mid-Poll takes nothing).
func (t *tickState) laneBuffer() []byte {
	if t.out == nil {
		t.getBatch()
	}
	return t.out.arena.next()
}

// emitLane adds the lane datagram d, packed in the buffer laneBuffer gave
// last, for addr: what the session sends next this tick may be packed
// after it.
func (t *tickState) emitLane(addr netip.AddrPort, d []byte) {
	t.fc.laneDgrams++
	t.fc.laneBytes += len(d)
	t.out.arena.use(len(d))
	t.out.msgs = append(t.out.msgs, conn.Message{Buf: d, Addr: addr})
	t.last, t.lastAddr = d, addr
}

// emitSession adds a session's unreliable datagrams of this tick
// (emitDatagrams). A run of shared moves queued last with nothing before
// it (a crowd viewer's moves, decision 0388) is cut into datagrams here,
// in the tick's scratch, and its parts handed over where SendUnreliableSpans
// wrote them (tickState.moves.spans, kept as long as the shared moves):
// the session's own parts are not written. A run after the session's own
// packets is packed after them first (packRun), as they came.
func (t *tickState) emitSession(sess *Session) {
	if sess.runN > 0 {
		if len(sess.parts) > 0 {
			sess.packRun()
		} else {
			end := sess.runAt + sess.runN
			run := t.moves.spans[sess.runAt:end:end]
			t.ends, t.pend = cutRun(run, t.ends[:0], t.pend[:0])
			t.emitDatagrams(sess, run, t.ends, t.pend)
			return
		}
	}
	t.emitDatagrams(sess, sess.parts, sess.unrelEnd, sess.partEnd)
}

// emitDatagrams adds a session's datagrams made of parts, each ending at
// ends (bytes from the first) and pend (in parts): the first packed after
// the previous datagram to the same address when it fits, then each run of
// datagrams of one size (its last one may be shorter, at most
// conn.MaxSegments) as one message that the writer sends as one UDP GSO
// message (decision 0338). Their bytes are handed over where they are (no
// copy), as a gather list when a run holds pieces of the shared moves
// (decision 0355): the session's buffers stay valid until the writer has
// written this tick's batch (Session.swapUnreliable), the shared moves too
// (endMoves).
func (t *tickState) emitDatagrams(sess *Session, parts []uint64, ends, pend []int) {
	addr := sess.Addr
	start, i, p := 0, 0, 0
	if t.last != nil && t.lastAddr == addr && len(t.last)+ends[0] <= wire.MaxDatagram {
		t.emitParts(sess, parts[:pend[0]], 1, 0, true)
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
		t.emitParts(sess, parts[p:pend[j-1]], j-i, seg, false)
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
func (t *tickState) emitParts(sess *Session, parts []uint64, dgrams, seg int, after bool) {
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
			t.emit(sess.Addr, d)
		} else {
			t.emitShared(sess.Addr, d, seg)
		}
		return
	}
	if !after {
		t.emitShared(sess.Addr, nil, seg)
	}
	b := t.out
	b.gather = append(b.gather, gatherRef{
		msg: len(b.msgs) - 1, head: after, extra: dgrams - 1,
		parts: parts, own: sess.unrel, shared: t.sharedMoves(),
	})
	t.last = nil // nothing is packed after it: the memory is not the batch's
}

// emitShared adds d, one datagram or datagrams of seg bytes (the last one
// possibly shorter), for addr, handed to the writer as it is (no copy): it
// must stay valid until the writer has written this tick's batch.
func (t *tickState) emitShared(addr netip.AddrPort, d []byte, seg int) {
	if t.out == nil {
		t.getBatch()
	}
	t.out.msgs = append(t.out.msgs, conn.Message{Buf: d, Addr: addr, Seg: seg})
	t.last = nil // nothing is packed after it: the memory is not the batch's
}

// MaxIdleBatches bounds the written batches the tick keeps for its next
// ticks: each holds its arena and message list at the largest tick it
// carried. A writer that fell behind made more, which the tick then
// drops, oldest first, once it has these many.
const MaxIdleBatches = 4

// getBatch takes a batch for this tick's datagrams: the one the writer
// gave back last. The tick's batches are its own (the reader's small
// ones never come to it) and taken last written first, so that a tick
// reuses the one or two batches the writer keeps up with, whose lists
// are grown and whose memory is warm: taken in turn, as from a queue,
// every batch the writer ever held had to grow its lists to a crossing's
// size in its turn, on fresh pages (~80 page faults of ~19 µs a batch
// for 3,500 messages), tick after tick.
func (t *tickState) getBatch() {
	for {
		select {
		case b := <-t.srv.freeT:
			t.batches = append(t.batches, b)
			continue
		default:
		}
		break
	}
	if extra := len(t.batches) - MaxIdleBatches; extra > 0 {
		// The oldest written, idle since the writer caught up: dropped,
		// with their arenas and lists, for the collector.
		n := copy(t.batches, t.batches[extra:])
		clear(t.batches[n:])
		t.batches = t.batches[:n]
	}
	if n := len(t.batches); n > 0 {
		t.out = t.batches[n-1]
		t.batches[n-1] = nil
		t.batches = t.batches[:n-1]
	} else {
		t.out = &batch{}
		t.batchesMade++ // in a Flush or a Receive (a hello's emit)
	}
	t.outCap = cap(t.out.msgs)
}

// flush hands this tick's datagrams to the writer.
func (t *tickState) flush() {
	if t.out == nil {
		return
	}
	t.batchSeq++
	t.out.seq = t.batchSeq
	t.srv.put(t.out)
	t.out, t.last = nil, nil
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
