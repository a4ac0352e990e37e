package lane

import (
	"bytes"
	"encoding/binary"
	"testing"
	"unsafe"

	"dlmp/internal/wire"
)

// The packet ids and sizes of TestSenderBigPackets: one that a slot holds,
// one just past its room, a superseded snapshot past it, and a message cut
// into fragments (two full ones and a short last one that a slot holds).
const (
	smallPID, smallLen = 0x21, 40
	roomPID, roomLen   = 0x22, slotRoom
	overPID, overLen   = 0x23, slotRoom + 1
	snapPID, snapLen   = 0x24, 600
	fragPID, fragLen   = 0x25, 2*(wire.MaxDatagram-wire.FragmentHeaderLen) + 100
)

var testLens = map[byte]int{smallPID: smallLen, roomPID: roomLen, overPID: overLen, snapPID: snapLen}

// packets cuts a datagram of TestSenderBigPackets into its packets.
func packets(t *testing.T, d []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for len(d) > 0 {
		n, ok := testLens[d[0]]
		if d[0] == wire.IDFragment {
			var f wire.Fragment
			m, err := f.Parse(d)
			if err != nil {
				t.Fatalf("fragment in datagram: %v", err)
			}
			n, ok = m, true
		}
		if !ok || n > len(d) {
			t.Fatalf("datagram holds a packet 0x%02x of unknown size or cut (%d bytes left)", d[0], len(d))
		}
		out = append(out, d[:n])
		d = d[n:]
	}
	return out
}

// Packets longer than a slot's room are held in the Sender's big buffers,
// the others in the slot: every message arrives with its bytes, through
// losses and retransmissions (a buffer reused while its event is in flight
// would corrupt one), a superseded snapshot included; and the buffers come
// back as their slots are freed, in order or not (fails if put or drop
// never frees one: the buffers in use would grow with every tick).
func TestSenderBigPackets(t *testing.T) {
	s := NewSender(SenderConfig{})
	r := NewReceiver(1, 0)
	var want [][]byte // the messages to deliver, in order
	got := 0
	deliver := func(m []byte) {
		if got >= len(want) {
			t.Fatalf("delivered %d messages, want %d", got+1, len(want))
		}
		w := want[got]
		// The event_id is the Sender's: compare the rest.
		if !bytes.Equal(m[:1], w[:1]) || !bytes.Equal(m[5:], w[5:]) {
			t.Fatalf("message %d: got packet 0x%02x of %d bytes, want 0x%02x of %d, or its bytes differ", got, m[0], len(m), w[0], len(w))
		}
		got++
	}
	push := func(pid byte, n int, seq uint32, class Class) {
		t.Helper()
		m := message(pid, n, seq)
		if err := s.Push(m, class); err != nil {
			t.Fatal(err)
		}
		if class != Snapshot {
			want = append(want, m)
		}
	}
	now, seq, peak := t0, uint32(0), 0
	for tick := range 60 {
		if tick < 40 {
			for _, p := range []struct {
				pid byte
				n   int
			}{{smallPID, smallLen}, {roomPID, roomLen}, {overPID, overLen}, {fragPID, fragLen}, {smallPID, smallLen}} {
				push(p.pid, p.n, seq, Critical)
				seq++
			}
			// The first snapshot is superseded while queued: its buffer
			// leaves the queue out of order.
			push(snapPID, snapLen, seq, Snapshot)
			m := message(snapPID, snapLen, seq+1)
			push(snapPID, snapLen, seq+1, Snapshot)
			want = append(want, m)
			seq += 2
		}
		peak = max(peak, len(s.bigs.used)-s.bigs.head)
		for i, d := range poll(s, now) {
			if tick%4 == 1 && i == 0 {
				continue // lost
			}
			for _, p := range packets(t, d) {
				if err := r.Offer(p, now, deliver); err != nil {
					t.Fatal(err)
				}
			}
		}
		now = now.Add(ms(50))
		s.OnAck(r.Ack(now), now)
	}
	if got != len(want) {
		t.Fatalf("delivered %d messages, want %d", got, len(want))
	}
	if s.Stats().Retransmits == 0 || s.Stats().Superseded != 40 {
		t.Fatalf("got %d retransmissions and %d superseded, want some and 40", s.Stats().Retransmits, s.Stats().Superseded)
	}
	if n := len(s.bigs.used) - s.bigs.head; n != 0 {
		t.Errorf("got %d big buffers in use with nothing in flight, want 0", n)
	}
	// A tick's pushes hold 6 big packets (the one past the room, two
	// fragments, two snapshots, one superseded): the buffers made are the
	// most in use at once, a few ticks' worth, not one per packet pushed.
	if made := len(s.bigs.free); made > peak || peak > 6*8 {
		t.Errorf("got %d big buffers made, %d in use at most, want at most that peak and it at most 48", made, peak)
	}
}

// The slot holds a packet of slotRoom bytes, and the Sender writes its
// event_id there (and a fragmented message's own, in its first fragment).
func TestSenderPacketInSlot(t *testing.T) {
	s := NewSender(SenderConfig{})
	for _, n := range []int{9, smallLen, slotRoom, slotRoom + 1} {
		if err := s.Push(message(smallPID, n, uint32(n)), Critical); err != nil {
			t.Fatal(err)
		}
	}
	s.Poll(t0, func([]byte) {})
	for id := uint32(1); id <= 4; id++ {
		sl := s.flight[id&s.mask]
		p := sl.packet()
		if got := binary.LittleEndian.Uint32(p[1:5]); got != id {
			t.Errorf("event %d: got event_id %d in its packet, want %d", id, got, id)
		}
		if inSlot := sl.big == nil; inSlot != (len(p) <= slotRoom) {
			t.Errorf("event %d of %d bytes: in the slot %v, want %v", id, len(p), inSlot, len(p) <= slotRoom)
		}
	}
}

// A slot is six cache lines, its bookkeeping one, its packet from the
// second (decision 0425): a field added to the bookkeeping moves the packet
// off its line and the slot into a larger size class.
func TestSlotSize(t *testing.T) {
	if got, off := unsafe.Sizeof(slot{}), unsafe.Offsetof(slot{}.msg); got != 384 || off != 64 {
		t.Errorf("got a %d-byte slot with its packet at %d, want 384 and 64", got, off)
	}
}

// The slots a Slots carves start on cache lines, each chunk within one
// page: a slot is its six lines and its packet's room starts on one
// (decision 0352), whatever header the runtime puts before a chunk
// (chunkPage).
func TestChunkSlotsOnLines(t *testing.T) {
	var p Slots
	for range 20 * chunkSlots {
		p.get()
	}
	for i, c := range p.chunks {
		a := uintptr(unsafe.Pointer(c))
		if end := a + unsafe.Sizeof(*c) - 1; a/4096 != end/4096 {
			t.Errorf("chunk %d at %#x..%#x straddles two pages", i, a, end)
		}
		if a%64 != 0 {
			t.Errorf("chunk %d at %#x: its slots start %d bytes into a cache line, want 0", i, a, a%64)
		}
	}
}
