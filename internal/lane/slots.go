package lane

import (
	"fmt"
	"math/bits"
)

// Slots is a free list of send-queue slots shared by the Senders of one
// goroutine (a server's sessions, on the tick): a slot one client's acks
// free is the next one another client's push takes, with its packet's
// room, instead of a new one. A Sender alone keeps the slots it freed
// for itself, so the memory its queue ever took stays its own, and each
// client whose queue grows past its own deepest so far allocates, while
// others hold slots they no longer use. New memory is new pages: in a
// crowd whose clients fall behind by turns, those allocations were most of
// the tick thread's page faults (~19 µs each on the load-run VM, decision
// 0317).
//
// The list carves its slots out of chunks of chunkSlots, one 4 KiB page
// each, numbers them in the order carved, and hands out the free one with
// the lowest number first (decision 0396): a view's burst of pushes to one
// Sender writes its slots in rising addresses, page after page, where the
// hardware's stream prefetcher runs ahead of the stores, instead of one
// cold line and one page walk a push in the order the acks freed them.
//
// The zero value is an empty list holding up to DefaultSharedSlots. Not
// safe for concurrent use: every Sender sharing it is on one goroutine.
type Slots struct {
	// Max is how many free slots are shared; 0 means DefaultSharedSlots.
	// A slot an ack frees when that many are free stays with its Sender;
	// a released Sender's come back past it. It bounds no memory: the
	// chunks are never freed (DefaultSharedSlots).
	Max    int
	chunks []*chunk // every chunk carved from, in order: slot i is chunks[i/chunkSlots][i%chunkSlots]
	carved int      // the slots handed out of the chunks so far; the last chunk's rest is not free yet
	free   []uint64 // bit i set: slot i is free
	low    int      // the words of free below low are all zero
	n      int      // the free slots
	fresh  int      // the slots put since the last Warm
	sink   byte     // the sum of Warm's loads: stored, so that the compiler keeps them
}

// CarvedChunks counts the chunks every Slots carved (HACK).
var CarvedChunks int

// chunkSlots is the slots of a chunk: 9 of 448 bytes, 4032, allocated in
// the 4096-byte size class, a page of its own.
const chunkSlots = 9

// chunk is the memory slots are carved from.
type chunk [chunkSlots]slot

// chunkPage puts a chunk's slots on cache lines, as decision 0352 lays
// a slot out (its packet's room on a line): the runtime puts an 8-byte
// header before an object of this size that holds pointers (Go 1.22 and
// later), so the chunk would start 8 bytes into a line; 56 bytes of pad
// and the header make 64, and 4096 in all, the same size class.
// TestChunkSlotsOnLines fails if the runtime lays it out otherwise.
type chunkPage struct {
	_ [56]byte
	c chunk
}

// DefaultSharedSlots is the default Max of a Slots: 1000 clients with
// 256 slots each. A slot is 448 bytes, its packet's room included (the
// buffers of longer packets stay with their Sender). The chunks are the
// list's for good: it does not shrink after a peak; it carves only when
// none is free, so its memory is the most slots its Senders held at once
// (at most the sum of their capacities, DefaultCapacity each), 448 bytes
// each.
const DefaultSharedSlots = 1 << 18

// Len is how many free slots the list holds.
func (p *Slots) Len() int { return p.n }

// get returns the free slot with the lowest number, or carves the next one
// when none is free; nil for a nil list.
func (p *Slots) get() *slot {
	if p == nil {
		return nil
	}
	if p.n == 0 {
		return p.carve()
	}
	for p.free[p.low] == 0 {
		p.low++
	}
	w := p.free[p.low]
	i := p.low*64 + bits.TrailingZeros64(w)
	p.free[p.low] = w & (w - 1)
	p.n--
	p.fresh = max(p.fresh-1, 0)
	return &p.chunks[i/chunkSlots][i%chunkSlots]
}

// carve returns the next slot never handed out, from a new chunk when the
// last one is used up, and makes room for its chunk's bits.
func (p *Slots) carve() *slot {
	if p.carved == len(p.chunks)*chunkSlots {
		c := &new(chunkPage).c
		CarvedChunks++ // HACK: session 15's fault trace
		for k := range c {
			c[k].no = uint32(p.carved + k)
		}
		p.chunks = append(p.chunks, c)
		if words := (p.carved + chunkSlots + 63) / 64; words > len(p.free) {
			p.free = append(p.free, make([]uint64, words-len(p.free))...)
		}
	}
	i := p.carved
	p.carved++
	return &p.chunks[i/chunkSlots][i%chunkSlots]
}

// put keeps the slot numbered i, one of its own, and reports true, or
// false when the list is full (or nil). It does not read the slot: an ack
// frees slots last touched ticks ago (decision 0348), and its Sender keeps
// their numbers beside them.
func (p *Slots) put(i uint32) bool {
	if p == nil || p.n >= cmpOr(p.Max, DefaultSharedSlots) {
		return false
	}
	p.keep(i)
	return true
}

// keep adds the slot numbered i, carved by p, to the free ones, full or
// not.
func (p *Slots) keep(i uint32) {
	p.free[i/64] |= 1 << (i % 64)
	p.low = min(p.low, int(i/64))
	p.n++
	p.fresh++
}

// errReleased is the death of a Sender whose slots were released.
var errReleased = fmt.Errorf("%w: released", ErrDead)

// Release ends the Sender and gives its slots — queued, in flight and
// free — to its shared list, past its Max too: they are carved from its
// chunks, and a new client's pushes take them instead of carving more.
// Afterwards Push returns ErrDead and Poll sends nothing; Free is the
// whole capacity and Progress counts everything acknowledged. Call it once
// nothing is to be sent any more; a Sender with a shared list must be
// Released, or its slots are lost to the list. Without a shared list the
// slots go to the collector.
func (s *Sender) Release() {
	if s.dead == nil {
		s.dead = errReleased
	}
	give := s.cfg.Shared.keep
	if s.cfg.Shared == nil {
		give = func(uint32) {}
	}
	for ; s.base != s.next; s.base++ {
		give(s.flightNo[s.base&s.mask])
		s.flight[s.base&s.mask] = nil
	}
	for i := s.pendHead; i < len(s.pending); i++ {
		give(s.pending[i].no)
	}
	clear(s.pending)
	s.pending, s.pendHead = s.pending[:0], 0
	for _, sl := range s.pool {
		give(sl.no)
	}
	clear(s.pool)
	s.pool, s.used, s.made = s.pool[:0], 0, 0
	s.bigs.reset()
}
