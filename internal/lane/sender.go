package lane

import (
	"encoding/binary"
	"fmt"
	"time"

	"dlmp/internal/wire"
)

// Sender defaults.
const (
	// DefaultCapacity is the send queue's size in slots: one slot per
	// event_id, queued or in flight. A fragmented message takes one slot per
	// fragment (at most 55 for 65536 bytes).
	DefaultCapacity = 1024
	// DefaultWindow is the most event_ids in flight past the oldest
	// unacknowledged one; the receiver holds as many early arrivals.
	DefaultWindow = 512
	// DroppableReserve is how many free slots a droppable message leaves
	// untouched: the 32 the world keeps for objects plus the one for
	// TeleportPlayer. A droppable push that would eat into them is dropped.
	DroppableReserve = 33
	// MinBudget is the smallest datagram budget a Sender accepts: room for
	// a Fragment header and some payload.
	MinBudget = 64
)

// SenderConfig configures a [Sender]. The zero value means the defaults.
type SenderConfig struct {
	Capacity    int           // send queue slots; DefaultCapacity
	Window      int           // event_ids in flight; DefaultWindow
	Budget      int           // datagram payload bytes, MinBudget..=wire.MaxDatagram; wire.MaxDatagram
	InitialRTT  time.Duration // DefaultInitialRTT
	MaxAckDelay time.Duration // DefaultMaxAckDelay
	MaxTries    int           // DefaultMaxTries
	// Shared, when set, is the free list of slots this Sender shares with
	// the others of its goroutine: it takes from it before allocating and
	// gives back what acks free. nil: the Sender keeps its own. A Sender
	// with a shared list must be Released when it ends: its slots are
	// carved from the list's chunks, which are never collected, so the
	// slots of a Sender dropped without Release are lost to the list.
	Shared *Slots
}

func (c *SenderConfig) fill() {
	c.Capacity = cmpOr(c.Capacity, DefaultCapacity)
	c.Window = cmpOr(c.Window, DefaultWindow)
	c.Budget = min(max(cmpOr(c.Budget, wire.MaxDatagram), MinBudget), wire.MaxDatagram)
	c.MaxTries = cmpOr(c.MaxTries, DefaultMaxTries)
}

func cmpOr(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// SenderStats counts what a Sender did; every dropped input is here.
type SenderStats struct {
	Pushed          int // messages accepted by Push
	Events          int // event_ids assigned (fragments count one each)
	Sends           int // event transmissions, first ones and retransmissions
	Retransmits     int // transmissions after the first
	FastRetransmits int // retransmissions triggered by acks: three later ids, or a late hole
	Timeouts        int // retransmissions triggered by the timer
	Datagrams       int // datagrams emitted
	Bytes           int // datagram bytes emitted
	Superseded      int // droppable messages replaced by a newer one
	Dropped         int // droppable messages dropped for want of room
	BadAcks         int // acks of event_ids never sent, dropped
	Deferred        int // expired timers re-armed past a Poll's burst (TimeoutBurst, halved when backed off)
}

// slot is one event: a message or a fragment, queued or in flight. Its
// bytes are held in the slot itself when they fit slotRoom (every event of
// the crowd: PlayerShow, Label3D), in a buffer of the Sender's (big)
// otherwise, so that a push into a slot another Sender freed ticks ago
// stores into it without loading it first (decision 0352).
type slot struct {
	slotHead
	msg [slotRoom]byte // the packet when it fits; at 64, cache-line aligned
}

// slotHead is a slot's bookkeeping, 64 bytes: one cache line, which a push,
// the Poll that sends the event and the ack that frees it each touch once
// (decision 0425). Its times are offsets from the Sender's epoch and its
// datagram and message numbers their low 32 bits, which the Sender widens
// back (dgOf, seqOf): an event in flight or queued is within 2^31 of them.
type slotHead struct {
	class    Class
	first    bool // the first fragment of a fragmented message
	acked    bool
	due      bool                    // fast retransmit at the next Poll
	n        uint16                  // len of the packet, in msg or big
	tries    uint16                  // transmissions so far (MaxTries bounds it)
	id       uint32                  // 0 until assigned
	sentHigh uint32                  // highest id sent when this was last transmitted
	no       uint32                  // its number in its Slots, set when carved (take does not write it): the Poll copies it to flightNo, supersede and Release read it
	dg       uint32                  // the datagram of its latest transmission, low bits (dgOf)
	firstDg  uint32                  // the datagram of its first transmission, low bits (dgOf)
	seq      uint32                  // the number of its message (every fragment the same), low bits (seqOf), for Progress
	firstAt  time.Duration           // first transmission, since the epoch
	sentAt   time.Duration           // latest transmission, since the epoch
	deadline time.Duration           // retransmission timer, since the epoch
	big      *[wire.MaxDatagram]byte // the packet when longer than slotRoom, from the Sender's bigs; nil otherwise
}

// slotRoom is the most bytes of a packet a slot holds inline: a Label3D
// (291 bytes) and anything shorter. It makes a slot 384 bytes, six cache
// lines, a size class of its own with no waste, the packet's bytes from the
// start of its second line.
const slotRoom = 320

// packet returns the slot's packet, its event_id at bytes 1..5.
func (sl *slot) packet() []byte {
	if sl.big != nil {
		return sl.big[:sl.n]
	}
	return sl.msg[:sl.n]
}

// Sender is the server's side of the Server → Client reliable event lane,
// one per player. The world pushes messages during its tick and polls once
// at the end of it; the socket side feeds it ClientAcks through the tick's
// queue.
//
// The zero value is not usable; call NewSender.
type Sender struct {
	// Immutable after NewSender.
	cfg  SenderConfig
	mask uint32 // len(flight)-1

	// Slots: free ones, queued ones (no id yet) and in-flight ones
	// indexed by id&mask for ids in [base, next).
	pool     []*slot
	made     int  // slots held (used or in pool), at most cfg.Capacity
	bigs     bigs // the buffers of the packets longer than slotRoom
	pending  []*slot
	pendHead int
	flight   []*slot
	flightNo []uint32 // the numbers of the slots in flight in their Slots, beside them: an ack frees them without reading them
	used     int      // queued + in flight

	base      uint32 // oldest unacknowledged event_id (next when none)
	next      uint32 // next event_id to assign
	highAcked uint32 // highest event_id acknowledged
	horizon   uint32 // highest event_id an ack could have shown: ack+65

	rtt        rtt
	dgSeq      uint64   // number of the datagram being packed
	dgram      []byte   // the datagram being packed, in own or the PollTo caller's buffer; nil: none
	own        []byte   // Poll's datagram buffer, reused
	suffix     []uint16 // scratch of OnAck, reused
	lastNow    time.Time
	timers     timers    // the in-flight events' retransmission timers, earliest first
	epoch      time.Time // the first transmission or deadline: the origin of the timers and of the slots' times (since)
	flagged    []uint32  // ids flagged for retransmission by acks since the last Poll
	progressAt time.Time // the last ack that acknowledged something new
	level      int       // timeouts since the last RTT sample: the link's backoff
	ackedDg    uint64    // 1 + the latest datagram an acknowledged event was first sent in; 0: none
	lastAck    uint32    // the cumulative ack of the latest ClientAck
	dupAcks    int       // ClientAcks since in a row with the same cumulative ack
	dead       error
	stats      SenderStats
	pushed     uint64        // messages queued by Push, for Progress
	pollAt     time.Duration // lastNow since the epoch: the Poll's time as its slots hold it
	sink       byte          // the sum of touchSendable's loads: stored, so that the compiler keeps them
}

// NewSender returns a Sender with event_ids starting at 1.
func NewSender(cfg SenderConfig) *Sender {
	cfg.fill()
	n := 1
	for n < cfg.Window {
		n <<= 1
	}
	s := &Sender{
		cfg:      cfg,
		mask:     uint32(n - 1),
		flight:   make([]*slot, n),
		flightNo: make([]uint32, n),
		base:     1,
		next:     1,
		horizon:  65,
		own:      make([]byte, 0, cfg.Budget),
		suffix:   make([]uint16, cfg.Window+1),
	}
	s.rtt.init(cfg.InitialRTT, cfg.MaxAckDelay)
	return s
}

// Free returns the free slots of the send queue. A message of up to
// Budget bytes takes one; a larger one takes one per Fragment. A slot frees
// when its event and every event below it are acknowledged.
func (s *Sender) Free() int { return s.cfg.Capacity - s.used }

// Dead returns why the link is dead, or nil while it lives.
func (s *Sender) Dead() error { return s.dead }

// Stats returns the counters.
func (s *Sender) Stats() SenderStats { return s.stats }

// SRTT returns the smoothed round-trip time.
func (s *Sender) SRTT() time.Duration { return s.rtt.srtt }

// RTO returns the retransmission timeout before backoff.
func (s *Sender) RTO() time.Duration { return s.rtt.rto() }

// InFlight returns how many event_ids are sent and not yet all acknowledged
// below them: next − base.
func (s *Sender) InFlight() int { return int(s.next - s.base) }

// Slots returns how many slots the Sender holds, used or free; it never
// exceeds the capacity (the memory bound).
func (s *Sender) Slots() int { return s.made }

// fragments returns how many slots a message of n bytes takes.
func (s *Sender) fragments(n int) int {
	if n <= s.cfg.Budget {
		return 1
	}
	p := s.cfg.Budget - wire.FragmentHeaderLen
	return (n + p - 1) / p
}

// Push queues a reliable message: a packet whose bytes 1..5 are its u32
// event_id, which the Sender writes when it assigns the id. msg is copied.
//
// A critical message that finds too few free slots returns an error
// wrapping ErrQueueFull, naming the need: the caller disconnects the player
// with it. A snapshot message first removes a queued snapshot with the same
// packet id (it supersedes it, and goes to the end of the stream in its
// place). A droppable message, or a snapshot that superseded nothing, is
// dropped, counted, if it would leave fewer than DroppableReserve slots
// free. Only queued messages are superseded: once an event_id is assigned
// the message is part of the gapless stream and is delivered. Droppable and
// snapshot messages must fit one datagram.
// After the link died, Push returns the death.
func (s *Sender) Push(msg []byte, class Class) error {
	if s.dead != nil {
		return s.dead
	}
	if len(msg) < 5 || len(msg) > wire.MaxMessage {
		return fmt.Errorf("%w: %d bytes, want 5..=%d", ErrMessage, len(msg), wire.MaxMessage)
	}
	k := s.fragments(len(msg))
	switch class {
	case Critical:
		if s.Free() < k {
			return fmt.Errorf("%w: a %d-byte critical message needs %d slots, %d of %d free",
				ErrQueueFull, len(msg), k, s.Free(), s.cfg.Capacity)
		}
	case Droppable, Snapshot:
		if k > 1 {
			return fmt.Errorf("%w: a %v message must fit one datagram (%d bytes), got %d", ErrMessage, class, s.cfg.Budget, len(msg))
		}
		if !(class == Snapshot && s.supersede(msg[0])) && s.Free() < 1+DroppableReserve {
			s.stats.Dropped++
			return nil
		}
	default:
		return fmt.Errorf("%w: unknown class %d", ErrMessage, class)
	}
	s.stats.Pushed++
	s.pushed++
	if k == 1 {
		sl := s.take(class)
		if len(msg) <= slotRoom {
			sl.n = uint16(copy(sl.msg[:], msg))
		} else {
			sl.big = s.bigs.get(sl)
			sl.n = uint16(copy(sl.big[:], msg))
		}
		s.enqueue(sl)
		return nil
	}
	p := s.cfg.Budget - wire.FragmentHeaderLen
	for i := 0; i < k; i++ {
		chunk := msg[i*p : min((i+1)*p, len(msg))]
		last := uint8(0)
		if i == k-1 {
			last = 1
		}
		sl := s.take(class)
		sl.first = i == 0
		b := sl.msg[:0] // a short last fragment
		if wire.FragmentHeaderLen+len(chunk) > slotRoom {
			sl.big = s.bigs.get(sl)
			b = sl.big[:0]
		}
		b = append(b, wire.IDFragment, 0, 0, 0, 0, last)
		b = binary.LittleEndian.AppendUint16(b, uint16(len(chunk)))
		b = append(b, chunk...)
		sl.n = uint16(len(b))
		s.enqueue(sl)
	}
	return nil
}

// Progress counts the messages Push queued (queued) and the longest prefix
// of them the client has acknowledged (acked): a message counts once all
// its fragments are acknowledged; a droppable one superseded in the queue
// counts as acknowledged. acked ≤ queued; both only grow. The world holds a
// spawn until the objects at its point are acknowledged with it
// (docs/decisions/0125-conn-progress-for-spawn-holds.md).
func (s *Sender) Progress() (queued, acked uint64) {
	switch {
	case s.base != s.next: // the oldest unacknowledged event is in flight
		return s.pushed, s.seqOf(s.flight[s.base&s.mask].seq) - 1
	case s.pendHead < len(s.pending): // none in flight: the oldest queued
		return s.pushed, s.seqOf(s.pending[s.pendHead].seq) - 1
	}
	return s.pushed, s.pushed
}

// supersede removes a queued droppable message with packet id pid and
// reports whether it found one (whose slot the new message then takes).
func (s *Sender) supersede(pid byte) bool {
	for i := s.pendHead; i < len(s.pending); i++ {
		sl := s.pending[i]
		if sl.class == Snapshot && sl.packet()[0] == pid {
			copy(s.pending[i:], s.pending[i+1:])
			s.pending = s.pending[:len(s.pending)-1]
			s.bigs.drop(sl) // out of the slots' order
			s.release(sl, sl.no)
			s.stats.Superseded++
			return true
		}
	}
	return false
}

// take returns a free slot, reusing one when it can; the caller checked
// that one is free. It writes the slot without reading any of it: a slot
// from the shared list was last touched by another Sender's acks, ticks
// ago, and its lines are out of the cache (decision 0352). So it writes
// only what is read of a queued event, field by field, the first a plain
// store: a composite assignment of a struct with pointers starts with a
// nil check that loads the slot (TESTB (DI)) and waits for it. The times,
// datagrams, sentHigh and due are written by the first transmission
// before anything reads them; the slot keeps its last event's until then.
func (s *Sender) take(class Class) *slot {
	var sl *slot
	if n := len(s.pool); n > 0 {
		sl, s.pool = s.pool[n-1], s.pool[:n-1]
	} else if sl = s.cfg.Shared.get(); sl != nil {
		s.made++
	} else {
		sl = new(slot)
		s.made++
	}
	sl.class = class // the first access: a store, the nil check without a load
	sl.first, sl.acked, sl.due = false, false, false
	sl.n, sl.id, sl.tries, sl.seq = 0, 0, 0, uint32(s.pushed)
	sl.big = nil
	s.used++
	return sl
}

// release frees sl, whose number in its Slots is no.
func (s *Sender) release(sl *slot, no uint32) {
	s.used--
	s.bigs.put(sl)
	if s.cfg.Shared.put(no) {
		s.made--
		return
	}
	s.pool = append(s.pool, sl)
}

func (s *Sender) enqueue(sl *slot) {
	if len(s.pending) == cap(s.pending) && s.pendHead > 0 {
		n := copy(s.pending, s.pending[s.pendHead:])
		clear(s.pending[n:])
		s.pending, s.pendHead = s.pending[:n], 0
	}
	s.pending = append(s.pending, sl)
}

// sendable reports whether a queued message may take an id now.
func (s *Sender) sendable() bool {
	return s.pendHead < len(s.pending) && int(s.next-s.base) < s.cfg.Window
}

// since is t as a slot holds it: its offset from the epoch, which the
// first transmission sets when no deadline did before.
func (s *Sender) since(t time.Time) time.Duration {
	if s.epoch.IsZero() {
		s.epoch = t
	}
	return t.Sub(s.epoch)
}

// dgOf widens the low bits of a datagram number a slot holds: the
// datagram at or before dgSeq with those bits.
func (s *Sender) dgOf(low uint32) uint64 { return s.dgSeq - uint64(uint32(s.dgSeq)-low) }

// seqOf widens the low bits of a message number a slot holds: the message
// at or before pushed with those bits.
func (s *Sender) seqOf(low uint32) uint64 { return s.pushed - uint64(uint32(s.pushed)-low) }
