package lane

import "fmt"

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
// The zero value is an empty list holding up to DefaultSharedSlots. Not
// safe for concurrent use: every Sender sharing it is on one goroutine.
type Slots struct {
	// Max bounds the slots kept; 0 means DefaultSharedSlots. A slot freed
	// when it is full stays with its Sender.
	Max   int
	free  []*slot
	fresh int  // the slots on top of free put since the last Warm
	sink  byte // the sum of Warm's loads: stored, so that the compiler keeps them
}

// DefaultSharedSlots is the default bound of a Slots: 1000 clients with
// 256 slots each. A slot is 448 bytes, its packet's room included (the
// buffers of longer packets stay with their Sender): at most ~117 MB kept,
// and the list does not shrink after a peak.
const DefaultSharedSlots = 1 << 18

// Len is how many free slots the list holds.
func (p *Slots) Len() int { return len(p.free) }

func (p *Slots) get() *slot {
	if p == nil || len(p.free) == 0 {
		return nil
	}
	n := len(p.free) - 1
	sl := p.free[n]
	p.free[n] = nil
	p.free = p.free[:n]
	p.fresh = max(p.fresh-1, 0)
	return sl
}

// put keeps sl and reports true, or false when the list is full.
func (p *Slots) put(sl *slot) bool {
	if p == nil || len(p.free) >= cmpOr(p.Max, DefaultSharedSlots) {
		return false
	}
	p.free = append(p.free, sl)
	p.fresh++
	return true
}

// errReleased is the death of a Sender whose slots were released.
var errReleased = fmt.Errorf("%w: released", ErrDead)

// Release ends the Sender and gives its slots — queued, in flight and
// free — to its shared list, as many as fit (a session that ended: its
// queue would otherwise go to the collector, and a new client's pushes to
// fresh pages). Afterwards Push returns ErrDead and Poll sends nothing;
// Free is the whole capacity and Progress counts everything acknowledged.
// Call it once nothing is to be sent any more.
func (s *Sender) Release() {
	if s.dead == nil {
		s.dead = errReleased
	}
	give := func(sl *slot) {
		if sl != nil {
			s.cfg.Shared.put(sl) // what does not fit goes to the collector
		}
	}
	for ; s.base != s.next; s.base++ {
		give(s.flight[s.base&s.mask])
		s.flight[s.base&s.mask] = nil
	}
	for i := s.pendHead; i < len(s.pending); i++ {
		give(s.pending[i])
	}
	clear(s.pending)
	s.pending, s.pendHead = s.pending[:0], 0
	for _, sl := range s.pool {
		give(sl)
	}
	clear(s.pool)
	s.pool, s.used, s.made = s.pool[:0], 0, 0
	s.bigs.reset()
}
