package lane

import (
	"encoding/binary"
	"fmt"
	"time"

	"dlmp/internal/wire"
)

// ReceiverStats counts what a Receiver dropped or repeated.
type ReceiverStats struct {
	Delivered    int // messages delivered (a fragmented one counts once)
	Duplicates   int // events already delivered or held, re-acknowledged
	Overflow     int // events beyond the window, dropped without an ack
	Malformed    int // packets too short for an event_id, or event_id 0
	BadFragments int // fragments breaking a rule, dropped without an ack
}

// Receiver is the client's side of the Server → Client reliable event
// lane: it delivers each event once, in event_id order, holds up to Window
// early ones, reassembles fragments and produces ClientAcks.
//
// The zero value is not usable; call NewReceiver.
type Receiver struct {
	// Immutable after NewReceiver.
	token  uint64
	window uint32
	mask   uint32

	next   uint32      // the event_id to deliver next
	held   [][]byte    // early events by id&mask; nil = absent (buffers kept in spare)
	heldAt []time.Time // when each held event arrived
	spare  [][]byte    // buffers of delivered early events, reused
	nHeld  int
	cumAt  time.Time // when event next−1 arrived
	ackDue bool

	reasm   []byte // the fragmented message being reassembled
	reasmID uint32 // event_id of its first fragment, 0 when none
	frag    wire.Fragment
	err     error
	stats   ReceiverStats
}

// NewReceiver returns a Receiver expecting event_id 1, holding up to window
// early events (DefaultWindow when window ≤ 0), acknowledging with token.
func NewReceiver(token uint64, window int) *Receiver {
	window = cmpOr(window, DefaultWindow)
	n := 1
	for n < window {
		n <<= 1
	}
	return &Receiver{token: token, window: uint32(window), mask: uint32(n - 1), next: 1, held: make([][]byte, n), heldAt: make([]time.Time, n)}
}

// Stats returns the counters.
func (r *Receiver) Stats() ReceiverStats { return r.stats }

// Held returns how many early events are buffered (at most the window).
func (r *Receiver) Held() int { return r.nHeld }

// Next returns the event_id the receiver delivers next.
func (r *Receiver) Next() uint32 { return r.next }

// Offer takes one reliable packet that passed the client decoder's checks
// (a packet that fails them is dropped before, without an ack) and calls
// deliver for every message it makes deliverable, in order. deliver must
// not keep the slice. A Fragment is checked here (CheckRecv) and dropped
// without an ack when it breaks a rule. The returned error wraps
// ErrProtocol and ends the connection: a reassembled message above 65536
// bytes, a message inside a fragmented one, or a fragmented message whose
// own event_id is not its first fragment's. After it, Offer returns it
// again.
func (r *Receiver) Offer(pkt []byte, now time.Time, deliver func(msg []byte)) error {
	if r.err != nil {
		return r.err
	}
	if len(pkt) < 5 {
		r.stats.Malformed++
		return nil
	}
	if pkt[0] == wire.IDFragment {
		if n, err := r.frag.Parse(pkt); err != nil || n != len(pkt) || r.frag.CheckRecv() != nil {
			r.stats.BadFragments++
			return nil
		}
	}
	id := binary.LittleEndian.Uint32(pkt[1:5])
	switch {
	case id == 0:
		r.stats.Malformed++
		return nil
	case id-r.next >= 1<<31: // before next, wrap-aware
		r.stats.Duplicates++
		r.ackDue = true
		return nil
	case id-r.next >= r.window:
		r.stats.Overflow++
		return nil
	}
	r.ackDue = true
	if id != r.next {
		i := id & r.mask
		if r.held[i] != nil {
			r.stats.Duplicates++
			return nil
		}
		var buf []byte
		if n := len(r.spare); n > 0 {
			buf, r.spare = r.spare[n-1][:0], r.spare[:n-1]
		}
		r.held[i] = append(buf, pkt...)
		r.heldAt[i] = now
		r.nHeld++
		return nil
	}
	r.cumAt = now
	if err := r.process(pkt, deliver); err != nil {
		return err
	}
	for {
		i := r.next & r.mask
		buf := r.held[i]
		if buf == nil {
			return nil
		}
		r.held[i] = nil
		r.cumAt = r.heldAt[i]
		r.nHeld--
		err := r.process(buf, deliver)
		r.spare = append(r.spare, buf)
		if err != nil {
			return err
		}
	}
}

// process delivers the event next, which is pkt, or adds it to the
// message being reassembled.
func (r *Receiver) process(pkt []byte, deliver func([]byte)) error {
	id := r.next
	r.next++
	if pkt[0] != wire.IDFragment {
		if r.reasmID != 0 {
			return r.fail("event %d (packet 0x%02X) inside the fragmented message of event %d", id, pkt[0], r.reasmID)
		}
		r.stats.Delivered++
		deliver(pkt)
		return nil
	}
	_, _ = r.frag.Parse(pkt) // checked in Offer
	if r.reasmID == 0 {
		r.reasmID = id
		r.reasm = r.reasm[:0]
	}
	if len(r.reasm)+len(r.frag.Payload) > wire.MaxMessage {
		return r.fail("fragmented message of event %d exceeds %d bytes", r.reasmID, wire.MaxMessage)
	}
	r.reasm = append(r.reasm, r.frag.Payload...)
	if r.frag.Last == 0 {
		return nil
	}
	first := r.reasmID
	r.reasmID = 0
	if len(r.reasm) < 5 || binary.LittleEndian.Uint32(r.reasm[1:5]) != first {
		return r.fail("fragmented message of event %d does not carry its first fragment's event_id", first)
	}
	r.stats.Delivered++
	deliver(r.reasm)
	return nil
}

func (r *Receiver) fail(format string, args ...any) error {
	r.err = fmt.Errorf("%w: "+format, append([]any{ErrProtocol}, args...)...)
	return r.err
}

// AckDue reports whether an event arrived since the last Ack: the client
// sends one ClientAck per tick while it is.
func (r *Receiver) AckDue() bool { return r.ackDue }

// Ack returns the ClientAck describing what has arrived: ack = every
// event_id below next, above = the early events held, delay_ms = how long
// the client held the newest arrival this ack shows (the highest bit of
// above, or ack itself), capped at 65535. The sender takes its RTT sample
// from that same event: an arrival beyond what the bitfield can show would
// pair the delay of one event with the send time of another. Ack clears
// AckDue; a keepalive sends it even when AckDue is false.
func (r *Receiver) Ack(now time.Time) wire.ClientAck {
	a := wire.ClientAck{Token: r.token, Ack: r.next - 1}
	at := r.cumAt
	if r.nHeld > 0 {
		for i := uint32(0); i < 64 && i+1 < r.window; i++ {
			if j := (r.next + 1 + i) & r.mask; r.held[j] != nil {
				a.Above |= 1 << i
				at = r.heldAt[j]
			}
		}
	}
	if !at.IsZero() {
		a.DelayMs = uint16(min(max(now.Sub(at), 0)/time.Millisecond, 65535))
	}
	r.ackDue = false
	return a
}
