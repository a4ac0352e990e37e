package lane

import (
	"encoding/binary"
	"fmt"
	"time"

	"dlmp/internal/wire"
)

// Go-Back-N defaults.
const (
	// DefaultGBNCapacity is the client's send queue in events, queued or
	// in flight.
	DefaultGBNCapacity = 256
	// DefaultGBNWindow is the most events in flight past the oldest
	// unacknowledged one.
	DefaultGBNWindow = 64
	// gbnHeader is where the event_id ends in a client packet:
	// [u8 packet_id][u64 token][u32 event_id].
	gbnHeader = 13
)

// GBNConfig configures a [GBNSender]. The zero value means the defaults.
type GBNConfig struct {
	Capacity    int           // DefaultGBNCapacity
	Window      int           // DefaultGBNWindow
	Budget      int           // datagram payload bytes; wire.MaxDatagram
	InitialRTT  time.Duration // DefaultInitialRTT
	MaxAckDelay time.Duration // DefaultMaxAckDelay
	MaxTries    int           // DefaultMaxTries
}

// GBNStats counts what a GBNSender did.
type GBNStats struct {
	Pushed      int // events accepted
	Sends       int // event transmissions
	Retransmits int // transmissions after the first
	Timeouts    int // timer expiries (each goes back to the base)
	Datagrams   int
	Bytes       int
	BadAcks     int // acks of event_ids never sent, dropped
}

type gslot struct {
	buf    []byte
	sentAt time.Time
	resent bool
}

// GBNSender is the client's side of the Client → Server reliable lane: a
// Go-Back-N sender. Events take gapless ids at Push; up to Window of them
// are in flight; ServerAck moves the base; when the base's timer expires,
// everything from the base is sent again.
//
// The zero value is not usable; call NewGBNSender.
type GBNSender struct {
	// Immutable after NewGBNSender.
	cfg  GBNConfig
	mask uint32

	ring     []gslot // events in [base, next) by id&mask
	base     uint32  // oldest unacknowledged
	sendNext uint32  // next to transmit
	next     uint32  // next id to assign
	sentEnd  uint32  // one past the highest id ever transmitted
	deadline time.Time
	tries    int // timeouts of the current base in a row
	baseAt   time.Time

	rtt     rtt
	dgram   []byte
	lastNow time.Time
	dead    error
	stats   GBNStats
}

// NewGBNSender returns a sender with event_ids starting at 1.
func NewGBNSender(cfg GBNConfig) *GBNSender {
	cfg.Capacity = cmpOr(cfg.Capacity, DefaultGBNCapacity)
	cfg.Window = min(cmpOr(cfg.Window, DefaultGBNWindow), cfg.Capacity)
	cfg.Budget = min(cmpOr(cfg.Budget, wire.MaxDatagram), wire.MaxDatagram)
	cfg.MaxTries = cmpOr(cfg.MaxTries, DefaultMaxTries)
	n := 1
	for n < cfg.Capacity {
		n <<= 1
	}
	g := &GBNSender{cfg: cfg, mask: uint32(n - 1), ring: make([]gslot, n), base: 1, sendNext: 1, next: 1, sentEnd: 1,
		dgram: make([]byte, 0, cfg.Budget)}
	g.rtt.init(cfg.InitialRTT, cfg.MaxAckDelay)
	return g
}

// Free returns how many more events Push accepts.
func (g *GBNSender) Free() int { return g.cfg.Capacity - int(g.next-g.base) }

// Dead returns why the link is dead, or nil.
func (g *GBNSender) Dead() error { return g.dead }

// Stats returns the counters.
func (g *GBNSender) Stats() GBNStats { return g.stats }

// Push queues a client packet whose bytes 9..13 are its u32 event_id (after
// the id and the u64 token); the sender writes the id. msg is copied. A
// full queue returns an error wrapping ErrQueueFull.
func (g *GBNSender) Push(msg []byte) error {
	if g.dead != nil {
		return g.dead
	}
	if len(msg) < gbnHeader || len(msg) > g.cfg.Budget {
		return fmt.Errorf("%w: %d bytes, want %d..=%d", ErrMessage, len(msg), gbnHeader, g.cfg.Budget)
	}
	if g.Free() == 0 {
		return fmt.Errorf("%w: %d client events unacknowledged", ErrQueueFull, g.cfg.Capacity)
	}
	s := &g.ring[g.next&g.mask]
	s.buf = append(s.buf[:0], msg...)
	binary.LittleEndian.PutUint32(s.buf[9:13], g.next)
	s.resent = false
	g.next++
	g.stats.Pushed++
	return nil
}

func (g *GBNSender) sendable() bool {
	return g.sendNext != g.next && int(g.sendNext-g.base) < g.cfg.Window
}

// NextTimeout returns when Poll has something to do, or the zero time.
func (g *GBNSender) NextTimeout() time.Time {
	if g.dead != nil {
		return time.Time{}
	}
	if g.sendable() {
		return g.lastNow
	}
	return g.deadline
}

// Poll goes back to the base when its timer expired, then sends what the
// window allows, packed into datagrams. emit must not keep the datagram.
func (g *GBNSender) Poll(now time.Time, emit func(datagram []byte)) {
	if g.dead != nil {
		return
	}
	g.lastNow = now
	if !g.deadline.IsZero() && !now.Before(g.deadline) {
		if g.tries+1 >= g.cfg.MaxTries {
			g.dead = fmt.Errorf("%w: client event %d unacknowledged after %d timeouts over %v",
				ErrDead, g.base, g.tries+1, now.Sub(g.baseAt).Round(time.Millisecond))
			return
		}
		g.tries++
		g.stats.Timeouts++
		for id := g.base; id != g.sendNext; id++ {
			g.ring[id&g.mask].resent = true
		}
		g.sendNext = g.base
		g.deadline = time.Time{}
	}
	g.dgram = g.dgram[:0]
	for g.sendable() {
		id := g.sendNext
		s := &g.ring[id&g.mask]
		if len(g.dgram)+len(s.buf) > g.cfg.Budget {
			g.flush(emit)
		}
		g.dgram = append(g.dgram, s.buf...)
		g.stats.Sends++
		if s.resent {
			g.stats.Retransmits++
		}
		s.sentAt = now
		if id == g.base && g.tries == 0 {
			g.baseAt = now
		}
		if g.deadline.IsZero() {
			g.deadline = now.Add(g.rtt.backoff(g.tries + 1))
		}
		g.sendNext++
		if g.sendNext-g.sentEnd < 1<<31 {
			g.sentEnd = g.sendNext
		}
	}
	if len(g.dgram) > 0 {
		g.flush(emit)
	}
}

func (g *GBNSender) flush(emit func([]byte)) {
	g.stats.Datagrams++
	g.stats.Bytes += len(g.dgram)
	emit(g.dgram)
	g.dgram = g.dgram[:0]
}

// OnAck processes a ServerAck. An ack of an id never sent is dropped and
// counted; an old one is ignored. A new one frees the events up to it,
// samples the RTT from it when it was sent once, and restarts the timer.
func (g *GBNSender) OnAck(a wire.ServerAck, now time.Time) {
	if g.dead != nil {
		return
	}
	if a.Ack-g.base >= 1<<31 { // below the base: old news
		return
	}
	if a.Ack-g.base >= g.sentEnd-g.base {
		g.stats.BadAcks++
		return
	}
	if s := &g.ring[a.Ack&g.mask]; !s.resent {
		g.rtt.sample(now.Sub(s.sentAt), 0)
	}
	g.base = a.Ack + 1
	if g.sendNext-g.base >= 1<<31 {
		g.sendNext = g.base
	}
	g.tries = 0
	g.baseAt = now
	g.deadline = time.Time{}
	if g.base != g.sendNext {
		g.deadline = now.Add(g.rtt.backoff(1))
	}
}
