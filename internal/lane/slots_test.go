package lane

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
	"time"

	"dlmp/internal/wire"
)

// deepen pushes n messages into s, sends them at now and acks them all:
// a client whose queue grew to n and drained.
func deepen(s *Sender, n int, now time.Time) {
	for i := range n {
		_ = s.Push(message(0x21, 40, uint32(i)), Critical)
	}
	s.Poll(now, func([]byte) {})
	s.OnAck(wire.ClientAck{Ack: s.next - 1}, now.Add(ms(20)))
}

// Slots the acks of one Sender free are the next another's pushes take:
// once a client's queue grew and drained, another's growing as deep
// allocates nothing. Fails when each Sender keeps its freed slots.
func TestSlotsSharedBetweenSenders(t *testing.T) {
	var shared Slots
	a := NewSender(SenderConfig{Shared: &shared})
	b := NewSender(SenderConfig{Shared: &shared})
	deepen(a, 200, t0)
	if got := shared.Len(); got != 200 {
		t.Fatalf("got %d shared slots after a's queue drained, want 200", got)
	}
	if got := a.Slots(); got != 0 {
		t.Errorf("a holds %d slots after giving them back, want 0", got)
	}
	now := t0.Add(time.Second)
	if n := testing.AllocsPerRun(10, func() { deepen(b, 200, now); now = now.Add(time.Second) }); n != 0 {
		t.Errorf("b's queue growing as deep as a's allocated %v times, want 0", n)
	}
	if got := b.Slots(); got > DefaultCapacity {
		t.Errorf("b holds %d slots, want at most the capacity", got)
	}
}

// A full shared list leaves the slots freed past its Max with their Sender.
func TestSlotsBounded(t *testing.T) {
	shared := Slots{Max: 50}
	a := NewSender(SenderConfig{Shared: &shared})
	deepen(a, 80, t0)
	if got := shared.Len(); got != 50 {
		t.Errorf("got %d shared slots, want the Max, 50", got)
	}
	if got := a.Slots(); got != 30 {
		t.Errorf("a holds %d slots, want the 30 past the Max", got)
	}
	// a's own come first: its next 30 pushes take no shared slot.
	deepen(a, 30, t0.Add(time.Second))
	if got := shared.Len(); got != 50 {
		t.Errorf("got %d shared slots after a reused its own, want 50", got)
	}
}

// BenchmarkSlotsByTurns: 100 clients whose queues grow to 50..549
// messages (a spread of depths, the turns' differing) and drain, one
// after another (a crowd falling behind by turns), each op one client's
// turn; with and without a shared free list. The slots and
// buffers a client allocates are fresh pages on the tick thread.
func BenchmarkSlotsByTurns(b *testing.B) {
	for _, bc := range []struct {
		name   string
		shared bool
	}{{"own", false}, {"shared", true}} {
		b.Run(bc.name, func(b *testing.B) {
			var shared *Slots
			if bc.shared {
				shared = new(Slots)
			}
			senders := make([]*Sender, 100)
			for i := range senders {
				senders[i] = NewSender(SenderConfig{Shared: shared})
			}
			now, i := t0, 0
			b.ReportAllocs()
			for b.Loop() {
				deepen(senders[i%len(senders)], 50+(i*7919)%500, now)
				now, i = now.Add(ms(50)), i+1
			}
		})
	}
}

// A released Sender's slots, queued, in flight and free, go to the shared
// list: a new client's queue takes them without allocating. The released
// Sender takes no more messages and sends nothing.
func TestSenderReleaseGivesSlots(t *testing.T) {
	var shared Slots
	a := NewSender(SenderConfig{Shared: &shared, Window: 64})
	for i := range 100 {
		_ = a.Push(message(0x21, 40, uint32(i)), Critical) // 64 go in flight, 36 stay queued
	}
	a.Poll(t0, func([]byte) {})
	if shared.Len() != 0 {
		t.Fatalf("got %d shared slots before the release, want 0", shared.Len())
	}
	a.Release()
	if got := shared.Len(); got != 100 {
		t.Fatalf("got %d shared slots after the release, want the 100 a held", got)
	}
	if err := a.Push(message(0x21, 40, 0), Critical); !errors.Is(err, ErrDead) {
		t.Errorf("Push after Release: %v, want ErrDead", err)
	}
	if got := poll(a, t0.Add(time.Minute)); len(got) != 0 {
		t.Errorf("a released Sender sent %d datagrams, want none", len(got))
	}
	if a.Slots() != 0 || a.Free() != DefaultCapacity {
		t.Errorf("got %d slots held and %d free, want 0 and %d", a.Slots(), a.Free(), DefaultCapacity)
	}
	b := NewSender(SenderConfig{Shared: &shared})
	for i := range 100 {
		_ = b.Push(message(0x21, 40, uint32(i)), Critical)
	}
	if got := shared.Len(); got != 0 {
		t.Errorf("a new client's 100 messages left %d shared slots, want 0: they take a's", got)
	}
}

// A slot from the shared list keeps what its last event left in it: take
// writes only what is read of a queued event, and the transmission writes
// the rest before anything reads it. A Sender whose slots are all such
// leftovers (another Sender's, after losses, retransmissions and timeouts)
// sends the same datagrams, at the same times, as one with new slots: fails
// if take leaves a field stale that an event reads before its send sets it.
func TestSlotsReusedLikeNew(t *testing.T) {
	kinds := []struct {
		pid byte
		n   int
	}{{smallPID, smallLen}, {roomPID, roomLen}, {overPID, overLen}, {smallPID, smallLen}, {fragPID, fragLen}}
	run := func(shared *Slots, seed int) ([]byte, SenderStats) {
		s := NewSender(SenderConfig{Shared: shared})
		r := NewReceiver(1, 0)
		var log []byte
		var late, later [][]byte // datagrams a tick late, delivered between two acks
		now := t0
		for tick := range 300 {
			for i := range 1 + (seed+tick)%7 {
				k := kinds[(tick+i+seed)%len(kinds)]
				if k.pid == fragPID && (tick+seed)%10 != 0 {
					k = kinds[0]
				}
				_ = s.Push(message(k.pid, k.n, uint32(tick*16+i)), Critical)
			}
			for i, d := range poll(s, now) {
				log = append(log, d...)
				switch (tick*7 + i + seed) % 6 {
				case 0: // lost
				case 3:
					later = append(later, d)
				default:
					for _, p := range packets(t, d) {
						_ = r.Offer(p, now, func([]byte) {})
					}
				}
			}
			log = binary.LittleEndian.AppendUint64(log, uint64(s.NextTimeout().Sub(t0)))
			now = now.Add(ms(50))
			stall := tick >= 100 && tick <= 140 // timeouts
			if !stall {
				s.OnAck(r.Ack(now), now) // shows the late ones missing
			}
			for _, d := range late {
				for _, p := range packets(t, d) {
					_ = r.Offer(p, now, func([]byte) {})
				}
			}
			if !stall {
				s.OnAck(r.Ack(now), now.Add(ms(1))) // and them arrived: freed while due
			}
			late, later = later, late[:0]
		}
		return log, s.Stats()
	}
	fresh, freshStats := run(nil, 1)
	var shared Slots
	run(&shared, 2) // leaves its slots, used, in the list
	run(&shared, 3)
	if shared.Len() == 0 {
		t.Fatal("no slot left in the shared list to reuse")
	}
	reused, reusedStats := run(&shared, 1)
	if freshStats != reusedStats {
		t.Errorf("with reused slots got stats %+v, want those with new ones %+v", reusedStats, freshStats)
	}
	if !bytes.Equal(fresh, reused) {
		t.Errorf("with reused slots the datagrams and timeouts differ from those with new ones")
	}
	if freshStats.FastRetransmits == 0 || freshStats.Timeouts == 0 {
		t.Errorf("got stats %+v, want fast retransmissions and timeouts", freshStats)
	}
}
