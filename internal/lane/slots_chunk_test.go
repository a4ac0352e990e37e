package lane

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"dlmp/internal/wire"
)

// The slots a Sender takes from a list are the free ones with the lowest
// numbers, in rising order, and a slot's number says where it lies in its
// chunks: a burst writes its slots in rising addresses. Fails if get takes
// the last freed first (a stack), or numbers a slot apart from its place.
func TestSlotsLowestFirst(t *testing.T) {
	var shared Slots
	a := NewSender(SenderConfig{Shared: &shared})
	b := NewSender(SenderConfig{Shared: &shared})
	for i := range 30 {
		_ = a.Push(message(0x21, 40, uint32(i)), Critical)
		_ = b.Push(message(0x21, 40, uint32(i)), Critical)
	}
	// Carved in the pushes' order: a and b alternate.
	for i, sl := range a.pending {
		if want := &shared.chunks[(2*i)/chunkSlots][(2*i)%chunkSlots]; sl != want || sl.no != uint32(2*i) {
			t.Fatalf("a's push %d took slot %d at %p, want slot %d at %p", i, sl.no, sl, 2*i, want)
		}
	}
	a.Poll(t0, func([]byte) {})
	b.Poll(t0, func([]byte) {})
	b.OnAck(ackOf(10), t0.Add(ms(20))) // frees 1, 3, .., 19: b's first ten
	a.OnAck(ackOf(20), t0.Add(ms(20))) // frees 0, 2, .., 38: a's first twenty
	if got := shared.Len(); got != 30 {
		t.Fatalf("got %d free slots, want 30", got)
	}
	c := NewSender(SenderConfig{Shared: &shared})
	for i := range 35 {
		_ = c.Push(message(0x21, 40, uint32(i)), Critical)
	}
	var want []uint32
	for i := range uint32(20) {
		want = append(want, i) // 0..19: a's ten and b's ten
	}
	for i := uint32(20); i <= 38; i += 2 {
		want = append(want, i) // a's other ten
	}
	want = append(want, 60, 61, 62, 63, 64) // then new ones
	var got []uint32
	for _, sl := range c.pending {
		got = append(got, sl.no)
	}
	if !slices.Equal(got, want) {
		t.Errorf("c's 35 pushes took slots %v, want %v", got, want)
	}
}

// Every slot a list carved is, at every step, either free in it or held
// by exactly one Sender, under acks in and out of order, losses,
// superseded snapshots (freed out of order), fragmented messages, a full
// list (slots left with their Sender) and Releases. Fails if an ack frees a slot by a stale
// number, or a supersede or Release loses or doubles one.
func TestSlotsNumbersKept(t *testing.T) {
	for seed := range uint64(8) {
		shared := Slots{Max: 40}
		r := rand.New(rand.NewPCG(seed, 9))
		senders := make([]*Sender, 4)
		for i := range senders {
			senders[i] = NewSender(SenderConfig{Shared: &shared, Window: 8, Capacity: 200})
		}
		now := t0
		for step := range 400 {
			for i, s := range senders {
				if s.Dead() != nil {
					senders[i] = NewSender(SenderConfig{Shared: &shared, Window: 8, Capacity: 200})
					continue
				}
				for range r.IntN(6) {
					if r.IntN(4) == 0 {
						_ = s.Push(message(0x30+byte(r.IntN(2)), 60, uint32(step)), Snapshot)
					} else if r.IntN(8) == 0 { // a fragmented message: a slot a fragment
						_ = s.Push(message(0x21, 1300+r.IntN(1700), uint32(step)), Critical)
					} else {
						_ = s.Push(message(0x21, 20+r.IntN(500), uint32(step)), Critical)
					}
				}
				s.Poll(now, func([]byte) {})
				if inFlight := s.next - s.base; inFlight > 0 && r.IntN(3) > 0 {
					cum := s.base - 1 + uint32(r.IntN(int(inFlight)+1))
					a := wire.ClientAck{Ack: cum}
					for id := cum + 2; id < s.next && id < cum+66; id++ {
						if r.IntN(2) == 0 {
							a.Above |= 1 << (id - cum - 2)
						}
					}
					s.OnAck(a, now)
				}
				if r.IntN(60) == 0 {
					s.Release()
				}
			}
			checkSlotNumbers(t, &shared, senders)
			now = now.Add(ms(50))
		}
		for _, s := range senders {
			s.Release()
		}
		checkSlotNumbers(t, &shared, senders)
		if shared.Len() != shared.carved {
			t.Fatalf("seed %d: got %d free slots after every Release, want all %d carved", seed, shared.Len(), shared.carved)
		}
	}
}

// checkSlotNumbers checks that the list's free slots and those the
// Senders hold (queued, in flight, in their pools) are the slots it
// carved, each once, and that a slot in flight has its number beside it.
func checkSlotNumbers(t *testing.T, p *Slots, senders []*Sender) {
	t.Helper()
	seen := make([]int, p.carved)
	free := 0
	for w, word := range p.free {
		free += bits.OnesCount64(word)
		for ; word != 0; word &= word - 1 {
			seen[w*64+bits.TrailingZeros64(word)]++
		}
	}
	if free != p.n {
		t.Fatalf("the list counts %d free slots, its bits %d", p.n, free)
	}
	for _, s := range senders {
		for id := s.base; id != s.next; id++ {
			sl, no := s.flight[id&s.mask], s.flightNo[id&s.mask]
			if sl.no != no {
				t.Fatalf("event %d's slot is number %d, the Sender has %d beside it", id, sl.no, no)
			}
			seen[no]++
		}
		for _, sl := range s.pending[s.pendHead:] {
			seen[sl.no]++
		}
		for _, sl := range s.pool {
			seen[sl.no]++
		}
	}
	for i, n := range seen {
		if n != 1 {
			t.Fatalf("slot %d is free or held %d times, want once", i, n)
		}
	}
}

// A released Sender's slots all go back, past a full list's Max: a new
// client's queue takes them and the list carves none. Fails if Release
// keeps to the Max (the rest would be lost in their chunks).
func TestSlotsReleasePastMax(t *testing.T) {
	shared := Slots{Max: 10}
	a := NewSender(SenderConfig{Shared: &shared, Window: 16})
	for i := range 30 {
		_ = a.Push(message(0x21, 40, uint32(i)), Critical) // 16 in flight, 14 queued
	}
	a.Poll(t0, func([]byte) {})
	a.Release()
	if got := shared.Len(); got != 30 {
		t.Fatalf("got %d free slots after the Release, want the 30 a held", got)
	}
	b := NewSender(SenderConfig{Shared: &shared})
	for i := range 30 {
		_ = b.Push(message(0x21, 40, uint32(i)), Critical)
	}
	if shared.carved != 30 || shared.Len() != 0 {
		t.Errorf("got %d carved and %d free, want 30 and 0: b took a's", shared.carved, shared.Len())
	}
}

// A Sender without a shared list numbers nothing and releases to nobody.
func TestSlotsWithoutList(t *testing.T) {
	s := NewSender(SenderConfig{})
	deepen(s, 20, t0)
	if got := s.Slots(); got != 20 {
		t.Errorf("got %d slots held, want its 20", got)
	}
	deepen(s, 20, t0.Add(time.Second))
	s.Release()
	if s.Slots() != 0 || len(s.pool) != 0 {
		t.Errorf("got %d slots held and %d pooled after Release, want 0", s.Slots(), len(s.pool))
	}
}
