package transport

import (
	"errors"
	"fmt"
	"net/netip"
	"time"

	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// ErrClosed is returned by Send on a session that is ending.
var ErrClosed = errors.New("transport: session closed")

// Session is one client connection. It implements the world's Conn.
type Session struct {
	// immutable after creation
	Token uint64
	Addr  netip.AddrPort
	Nonce uint64
	srv   *Server

	// Owned by the tick goroutine. What SendUnreliableSpans reads and
	// writes, a crowd viewer's every tick, is in the first two cache lines
	// (from srv to runN), which the world loads ahead of its moves
	// (WarmMoves, decision 0389); the reader's rate is past them.
	closing   uint8 // a Disconnect reason: the session ends at the end of this tick
	quiet     bool  // the client ended it: send no Disconnect
	ended     bool
	sharedGen uint64 // 1 + the tickState.movesGen the shared parts are of; 0: none
	// The last run of shared moves queued (SendUnreliableSpans), after
	// parts: tickState.moves.spans[runAt : runAt+runN], packed into
	// datagrams only at the session's step, or before a packet queued
	// after it (packRun); runN 0: none (decision 0388).
	runAt, runN uint32
	// This tick's unreliable packets, in order, are parts: pieces of unrel
	// (the packets queued one by one, copied there back to back) or of the
	// tick's shared moves (SendUnreliableSpans: not copied, decision 0355).
	unrel     []byte
	parts     []uint64 // off | n<<32 | partShared: a piece of unrel or of the shared moves
	unrelEnd  []int    // where each datagram's worth of packets ends, in bytes from the first
	partEnd   []int    // where each datagram's worth ends in parts
	PlayerID  uint16
	User      any // the world's data for this session
	joined    bool
	hello     []byte // the encoded ServerHello, repeated for a repeated ClientHello
	send      *lane.Sender
	gbn       *lane.GBNReceiver
	seq       lane.Sequence
	created   time.Time
	lastHeard time.Time
	lastSent  time.Time
	confirmed bool
	echo      uint32
	echoDue   bool
	// unrel and parts rotate among three buffers: the writer sends the
	// datagrams of the last ticks straight from the two held while the
	// world fills the third, so a writer a tick behind costs no new buffer
	// (whose fresh pages the next tick would fault on, one per session).
	held [2]heldBuf

	// Owned by the reader goroutine, a cache line past the tick's fields
	// (held is written at every step): no line is written by both.
	_    [64]byte
	rate rate
}

// partShared marks a part that is a piece of the tick's shared moves
// (tickState.moves), not of the session's unrel.
const partShared = 1 << 63

// partLen is the mask of a part's length, after its shift by 32.
const partLen = 1<<31 - 1

// heldBuf is a buffer of unreliable datagrams handed to a tick batch.
type heldBuf struct {
	buf   []byte
	parts []uint64
	seq   uint64 // the tick batch that holds its datagrams (0: none)
}

// swapUnreliable hands unrel to the tick batch seq (not yet written) and
// takes the older held buffer for the next tick's packets — written, since
// batches are written in order, unless both are still in the writer's
// queue: then that one is left to the writer, kept in sp (nil: none) until
// its batch is written, and the next buffer is sp's oldest written one
// (warm pages), or a new one when sp has none (the tick does not swap
// then: unreliableRoom).
func (s *Session) swapUnreliable(seq, written uint64, sp *spares) {
	i := 0
	if s.held[1].seq < s.held[0].seq {
		i = 1
	}
	next := s.held[i]
	if next.seq > written { // still in the writer's queue: left to it
		next = sp.take(written, cap(s.unrel), cap(s.parts))
		sp.put(s.held[i])
	}
	s.held[i] = heldBuf{buf: s.unrel, parts: s.parts, seq: seq}
	s.unrel, s.parts = next.buf[:0], next.parts[:0]
	s.unrelEnd, s.partEnd, s.sharedGen, s.runN = s.unrelEnd[:0], s.partEnd[:0], 0, 0
}

// dropUnreliable forgets this tick's unreliable packets, keeping the
// buffers.
func (s *Session) dropUnreliable() {
	s.unrel, s.parts, s.sharedGen, s.runN = s.unrel[:0], s.parts[:0], 0, 0
	s.unrelEnd, s.partEnd = s.unrelEnd[:0], s.partEnd[:0]
}

// unreliableRoom reports whether swapUnreliable would find a buffer the
// writer is done with: the older held one (its batch written) or sp's
// oldest. Without one it would make a new buffer, whose fresh pages the
// next tick faults on, while the writer is already behind: the tick drops
// the session's unreliable datagrams instead (decision 0318).
func (s *Session) unreliableRoom(written uint64, sp *spares) bool {
	i := 0
	if s.held[1].seq < s.held[0].seq {
		i = 1
	}
	return s.held[i].seq <= written || sp.ready(written)
}

func newSession(srv *Server, token uint64, addr netip.AddrPort, nonce uint64, now time.Time) *Session {
	return &Session{
		Token: token, Addr: addr, Nonce: nonce, srv: srv,
		send:    lane.NewSender(lane.SenderConfig{Capacity: srv.cfg.SendQueue, Shared: &srv.tick.slots, MaxAckDelay: srv.cfg.ackDelay()}),
		gbn:     lane.NewGBNReceiver(0),
		created: now, lastHeard: now, lastSent: now,
	}
}

// Attach adds a session for addr without a handshake, confirmed and
// joined as if its client had said hello, and returns it for the caller
// to join to its world (the Handler's Join is not called): benchmarks and
// tests drive a world into real sessions with it. The reader knows no
// token of it, so nothing addr sends reaches it, and it times out after
// Config.Timeout unless the caller's world ends it first. Call it from the
// world's goroutine only.
func (s *Server) Attach(addr netip.AddrPort, now time.Time) *Session {
	sess := newSession(s, s.newToken(), addr, 0, now)
	sess.confirmed, sess.joined = true, true
	s.tick.sessions = append(s.tick.sessions, sess)
	s.stats.Joined.Add(1)
	return sess
}

// Send queues one encoded reliable packet. A critical packet that finds the
// queue full ends the session with send_queue_full (at the end of the
// tick) and returns the error; a droppable one is dropped by the lane.
func (s *Session) Send(msg []byte, class lane.Class) error {
	if s.closing != 0 || s.ended {
		return ErrClosed
	}
	err := s.send.Push(msg, class)
	if errors.Is(err, lane.ErrQueueFull) && class == lane.Critical {
		s.Kick(wire.ReasonSendQueueFull)
	}
	if err != nil {
		return fmt.Errorf("transport: player %d: %w", s.PlayerID, err)
	}
	return nil
}

// SendUnreliable queues one encoded unreliable packet for this tick's
// datagrams, copied. A packet larger than a datagram is dropped. The
// packets are packed into datagrams as they come: the tick emits each
// datagram's worth at once.
func (s *Session) SendUnreliable(msg []byte) {
	if s.closing != 0 || s.ended || len(msg) > wire.MaxDatagram {
		return
	}
	s.queue(uint64(len(s.unrel))|uint64(len(msg))<<32, len(msg))
	s.unrel = append(s.unrel, msg...)
}

// WarmMoves loads the lines SendUnreliableSpans reads and writes and
// returns a byte of them (world.moveWarmer): a world loads a few viewers'
// ahead of their moves, their misses at once (decision 0389).
func (s *Session) WarmMoves() uint32 {
	return uint32(s.closing) + s.runN
}

// SendUnreliableSpans queues the packets buf[off : off+n], one for each
// span off | n<<32 of spans, in order, for this tick's datagrams, as
// SendUnreliable would one by one. buf is the world's one buffer of the
// tick's moves, the same for every session: it must not change until the
// transport's next Flush. The transport copies it once a tick (the first
// call with it) and the session's datagrams point into that copy; the
// writer goroutine copies them from there as it sends them: the tick's
// goroutine does not copy the packets per session (a world sends a
// crowd's viewer ~90 PlayerMoves a tick; decision 0355). Nor does it pack
// them into the session's datagrams here: the run is appended to the
// tick's one list of runs (tickState.moves.spans, written in order, warm)
// and packed at the session's step, where the session is read anyway, or
// before a packet queued after it (decision 0388). Called during a Flush (a Leave's
// sends), or on a session without a server, the packets are copied as
// SendUnreliable's. A span past the end of buf is dropped, as a packet
// larger than a datagram is.
func (s *Session) SendUnreliableSpans(buf []byte, spans []uint64) {
	if s.closing != 0 || s.ended {
		return
	}
	base, ok := uint64(0), false
	if s.srv != nil {
		base, ok = s.srv.tick.shareMoves(buf)
	}
	if !ok {
		for _, sp := range spans {
			off, n := uint64(uint32(sp)), sp>>32
			if n <= wire.MaxDatagram && off+n <= uint64(len(buf)) {
				s.SendUnreliable(buf[off : off+n])
			}
		}
		return
	}
	t := &s.srv.tick
	run := t.moves.spans
	at := len(run)
	for _, sp := range spans {
		off, n := uint64(uint32(sp)), sp>>32
		if n > wire.MaxDatagram || off+n > uint64(len(buf)) {
			continue
		}
		run = append(run, (base+off)|n<<32|partShared)
	}
	t.moves.spans = run
	if len(run) == at {
		// Nothing queued: no mark that no step would clear (a quiet tick
		// later would take the session's own packets for stale ones).
		return
	}
	if s.runN > 0 {
		s.packRun() // the last run first, in order
	}
	s.sharedGen = t.movesGen + 1
	if t.movesBehind {
		// This tick's copy is a new one: the writer is behind (decision
		// 0318). The run is packed into the session's kept buffers as
		// before 0388, and the tick's new list is not grown for it.
		s.parts, s.unrelEnd, s.partEnd = packParts(run[at:], s.parts, s.unrelEnd, s.partEnd)
		t.moves.spans = run[:at]
		return
	}
	s.runAt, s.runN = uint32(at), uint32(len(run)-at)
}

// packRun packs the session's pending run of shared moves (runAt, runN)
// into its datagrams (parts, unrelEnd, partEnd), after the packets queued
// before it, as the packets would have been queued one by one: before a
// packet queued after the run. A run of an earlier tick (a session that
// was not stepped since) is dropped: its copy may be written over.
func (s *Session) packRun() {
	t := &s.srv.tick
	if s.sharedGen == t.movesGen+1 && t.moves != nil {
		run := t.moves.spans[s.runAt : s.runAt+s.runN]
		s.parts, s.unrelEnd, s.partEnd = packParts(run, s.parts, s.unrelEnd, s.partEnd)
	}
	s.runN = 0
}

// packParts packs the packets run (parts of the shared moves, one packet
// each) after the datagrams parts, ends, pend (Session.parts, unrelEnd,
// partEnd), as queue would one by one: each in the last datagram when it
// fits, merged with the last part when it follows it in the shared moves,
// else in a new datagram.
func packParts(run, parts []uint64, ends, pend []int) ([]uint64, []int, []int) {
	start, total := 0, 0
	if k := len(ends); k > 0 {
		total = ends[k-1]
		if k > 1 {
			start = ends[k-2]
		}
	}
	for _, p := range run {
		n := p >> 32 & partLen
		if len(ends) == 0 || total+int(n)-start > wire.MaxDatagram {
			// a new datagram; the last one's ends are written when closed
			if k := len(ends); k > 0 {
				ends[k-1], pend[k-1] = total, len(parts)
			}
			start, ends, pend = total, append(ends, 0), append(pend, 0)
			parts = append(parts, p)
		} else if last := parts[len(parts)-1]; last&partShared != 0 && uint64(uint32(last))+(last>>32&partLen) == uint64(uint32(p)) {
			parts[len(parts)-1] = last + n<<32 // follows the last piece in the shared moves
		} else {
			parts = append(parts, p)
		}
		total += int(n)
	}
	if k := len(ends); k > 0 {
		ends[k-1], pend[k-1] = total, len(parts)
	}
	return parts, ends, pend
}

// cutRun appends to ends and pend where the datagrams of the packets run
// (parts, one packet each) end, in bytes and in parts, packed from an
// empty tick as packParts packs them (the same datagrams; each packet its
// own part, none merged).
func cutRun(run []uint64, ends, pend []int) ([]int, []int) {
	start, total := 0, 0
	for i, p := range run {
		n := int(p >> 32 & partLen)
		if i > 0 && total+n-start > wire.MaxDatagram {
			ends, pend = append(ends, total), append(pend, i)
			start = total
		}
		total += n
	}
	if len(run) > 0 {
		ends, pend = append(ends, total), append(pend, len(run))
	}
	return ends, pend
}

// queue adds part p, a packet of n bytes, to this tick's datagrams: after
// the last datagram's packets when the datagram fits it (one piece with
// the last part when it follows it in the same memory), else as a new
// datagram.
func (s *Session) queue(p uint64, n int) {
	if s.runN > 0 {
		s.packRun()
	}
	k := len(s.unrelEnd)
	if k > 0 && s.unrelEnd[k-1]+n-s.lastStart() <= wire.MaxDatagram {
		s.unrelEnd[k-1] += n
		last := s.parts[len(s.parts)-1]
		if last&partShared == p&partShared && uint64(uint32(last))+(last>>32&partLen) == uint64(uint32(p)) {
			s.parts[len(s.parts)-1] = last + uint64(n)<<32
			return
		}
		s.parts = append(s.parts, p)
		s.partEnd[k-1] = len(s.parts)
		return
	}
	total := 0
	if k > 0 {
		total = s.unrelEnd[k-1]
	}
	s.parts = append(s.parts, p)
	s.unrelEnd, s.partEnd = append(s.unrelEnd, total+n), append(s.partEnd, len(s.parts))
}

// lastStart returns where the last datagram's worth of this tick's
// unreliable packets starts, in bytes from the first.
func (s *Session) lastStart() int {
	if n := len(s.unrelEnd); n > 1 {
		return s.unrelEnd[n-2]
	}
	return 0
}

// Progress counts the reliable messages queued and the longest prefix of
// them the client acknowledged (world.Conn; see lane.Sender.Progress).
func (s *Session) Progress() (queued, acked uint64) { return s.send.Progress() }

// Free is how many slots the reliable send queue has free.
func (s *Session) Free() int { return s.send.Free() }

// Kick ends the session with reason at the end of the tick: the client is
// sent a Disconnect, the world receives Leave.
func (s *Session) Kick(reason uint8) {
	if s.closing == 0 && !s.ended {
		s.closing = reason
	}
}

// SRTT is the lane's smoothed round-trip time.
func (s *Session) SRTT() time.Duration { return s.send.SRTT() }

// LaneStats are the reliable lane's counters.
func (s *Session) LaneStats() lane.SenderStats { return s.send.Stats() }

// Ended reports whether the session is over.
func (s *Session) Ended() bool { return s.ended }
