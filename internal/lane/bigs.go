package lane

import (
	"slices"

	"dlmp/internal/wire"
)

// bigs holds a Sender's buffers for the packets longer than slotRoom (a
// fragment, a large message): those in use, in the order of their slots,
// and the free ones. The queue's order is the event_ids' order and acks
// free slots in it, so a released slot's buffer, if it has one, is the
// oldest in use: put matches the slot's address against it and never reads
// the slot (decision 0352). A slot taken out of order (a superseded
// snapshot) gives its buffer back with drop first.
//
// The buffers stay with their Sender: at most one a slot in use, as when
// each slot kept its own.
type bigs struct {
	used []bigBuf // in use from head, oldest first
	head int
	free []*[wire.MaxDatagram]byte
}

type bigBuf struct {
	sl  *slot
	buf *[wire.MaxDatagram]byte
}

// get returns a buffer with room for a datagram, in use by sl.
func (b *bigs) get(sl *slot) *[wire.MaxDatagram]byte {
	var buf *[wire.MaxDatagram]byte
	if n := len(b.free); n > 0 {
		buf = b.free[n-1]
		b.free[n-1] = nil
		b.free = b.free[:n-1]
	} else {
		buf = new([wire.MaxDatagram]byte)
	}
	if len(b.used) == cap(b.used) && b.head > 0 {
		n := copy(b.used, b.used[b.head:])
		clear(b.used[n:])
		b.used, b.head = b.used[:n], 0
	}
	b.used = append(b.used, bigBuf{sl: sl, buf: buf})
	return buf
}

// put frees the buffer of sl, released in the slots' order, if it has one.
func (b *bigs) put(sl *slot) {
	if b.head == len(b.used) || b.used[b.head].sl != sl {
		return
	}
	b.free = append(b.free, b.used[b.head].buf)
	b.used[b.head] = bigBuf{}
	b.head++
	if b.head == len(b.used) {
		b.used, b.head = b.used[:0], 0
	}
}

// drop frees the buffer of sl, released out of the slots' order, if it
// has one.
func (b *bigs) drop(sl *slot) {
	i := slices.IndexFunc(b.used[b.head:], func(u bigBuf) bool { return u.sl == sl })
	if i < 0 {
		return
	}
	i += b.head
	b.free = append(b.free, b.used[i].buf)
	b.used = slices.Delete(b.used, i, i+1)
	if b.head == len(b.used) {
		b.used, b.head = b.used[:0], 0
	}
}

// reset frees every buffer in use (the Sender gave its slots away).
func (b *bigs) reset() {
	for _, u := range b.used[b.head:] {
		b.free = append(b.free, u.buf)
	}
	clear(b.used)
	b.used, b.head = b.used[:0], 0
}
