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

	// owned by the reader goroutine
	rate rate

	// owned by the tick goroutine
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
	closing   uint8 // a Disconnect reason: the session ends at the end of this tick
	quiet     bool  // the client ended it: send no Disconnect
	ended     bool
	echo      uint32
	echoDue   bool
	unrel     []byte // unreliable packets queued this tick, back to back
	unrelEnd  []int  // where each datagram's worth of them ends in unrel
	// unrel rotates among three buffers: the writer sends the datagrams of
	// the last ticks straight from the two held while the world fills the
	// third, so a writer a tick behind costs no new buffer (whose fresh
	// pages the next tick would fault on, one per session).
	held [2]heldBuf
}

// heldBuf is a buffer of unreliable datagrams handed to a tick batch.
type heldBuf struct {
	buf []byte
	seq uint64 // the tick batch that holds its datagrams (0: none)
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
	next := s.held[i].buf
	if s.held[i].seq > written { // still in the writer's queue: left to it
		next = sp.take(written, cap(s.unrel))
		sp.put(s.held[i])
	}
	s.held[i] = heldBuf{buf: s.unrel, seq: seq}
	s.unrel = next[:0]
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
		send:    lane.NewSender(lane.SenderConfig{Capacity: srv.cfg.SendQueue, Shared: &srv.tick.slots}),
		gbn:     lane.NewGBNReceiver(0),
		created: now, lastHeard: now, lastSent: now,
	}
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
// datagrams. A packet larger than a datagram is dropped. The packets are
// packed into datagrams as they come: the tick emits each datagram's worth
// at once.
func (s *Session) SendUnreliable(msg []byte) {
	if s.closing != 0 || s.ended || len(msg) > wire.MaxDatagram {
		return
	}
	s.unrel, s.unrelEnd, _ = pack(s.unrel, s.unrelEnd, s.lastStart(), msg)
}

// SendUnreliableSpans queues the packets buf[off : off+n], one for each
// span off | n<<32 of spans, in order, for this tick's datagrams, as
// SendUnreliable would one by one: the session's checks and its buffers
// are read once for the run, and each packet is copied once, from the
// world's shared buffer into the datagrams (a world sends a crowd's viewer
// ~90 PlayerMoves a tick). A span past the end of buf is dropped, as a
// packet larger than a datagram is.
func (s *Session) SendUnreliableSpans(buf []byte, spans []uint64) {
	if s.closing != 0 || s.ended {
		return
	}
	unrel, ends, start := s.unrel, s.unrelEnd, s.lastStart()
	for _, sp := range spans {
		off, n := uint64(uint32(sp)), sp>>32
		if n > wire.MaxDatagram || off+n > uint64(len(buf)) {
			continue
		}
		// pack, with the last datagram's end written when it is closed.
		if len(ends) == 0 || len(unrel)+int(n)-start > wire.MaxDatagram {
			if len(ends) > 0 {
				ends[len(ends)-1] = len(unrel)
			}
			start, ends = len(unrel), append(ends, 0)
		}
		unrel = append(unrel, buf[off:off+n]...)
	}
	if len(ends) > 0 {
		ends[len(ends)-1] = len(unrel)
	}
	s.unrel, s.unrelEnd = unrel, ends
}

// lastStart returns where the last datagram's worth of this tick's
// unreliable packets starts in unrel.
func (s *Session) lastStart() int {
	if n := len(s.unrelEnd); n > 1 {
		return s.unrelEnd[n-2]
	}
	return 0
}

// pack appends msg to the datagrams' worth of packets in unrel (ending at
// ends, the last one starting at start): after the last one when the
// datagram fits it, else as a new one. It returns the three updated.
func pack(unrel []byte, ends []int, start int, msg []byte) ([]byte, []int, int) {
	if len(ends) > 0 && len(unrel)+len(msg)-start <= wire.MaxDatagram {
		unrel = append(unrel, msg...)
		ends[len(ends)-1] = len(unrel)
		return unrel, ends, start
	}
	start = len(unrel)
	unrel = append(unrel, msg...)
	return unrel, append(ends, len(unrel)), start
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
