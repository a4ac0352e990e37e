package lane

import (
	"encoding/binary"
	"time"

	"dlmp/internal/wire"
)

// DefaultAckLinger is how long the server keeps putting ServerAck on its
// datagrams after the last client event arrived.
const DefaultAckLinger = time.Second

// GBNReceiverStats counts what a GBNReceiver did with each event.
type GBNReceiverStats struct {
	Accepted   int // the next expected id: acted on
	Duplicates int // already accepted: re-acknowledged, not acted on
	Future     int // beyond the next expected: dropped
	Malformed  int // too short for an event_id, or event_id 0
}

// GBNReceiver is the server's side of the Client → Server lane: it accepts
// only the next expected event_id.
//
// The zero value is not usable; call NewGBNReceiver.
type GBNReceiver struct {
	linger time.Duration
	next   uint32
	lastAt time.Time
	due    bool
	stats  GBNReceiverStats
}

// NewGBNReceiver returns a receiver expecting event_id 1 that repeats its
// ServerAck for linger after the last event (DefaultAckLinger when ≤ 0).
func NewGBNReceiver(linger time.Duration) *GBNReceiver {
	if linger <= 0 {
		linger = DefaultAckLinger
	}
	return &GBNReceiver{linger: linger, next: 1}
}

// Stats returns the counters.
func (r *GBNReceiver) Stats() GBNReceiverStats { return r.stats }

// Offer takes one client packet whose token the session checked and reports
// whether the server acts on it: only the next expected event_id is
// accepted. A duplicate is re-acknowledged without acting on it; an id from
// the future is dropped (Go-Back-N resends it in order).
func (r *GBNReceiver) Offer(pkt []byte, now time.Time) bool {
	if len(pkt) < gbnHeader || binary.LittleEndian.Uint32(pkt[9:13]) == 0 {
		r.stats.Malformed++
		return false
	}
	id := binary.LittleEndian.Uint32(pkt[9:13])
	r.lastAt, r.due = now, true
	switch {
	case id == r.next:
		r.next++
		r.stats.Accepted++
		return true
	case id-r.next >= 1<<31:
		r.stats.Duplicates++
	default:
		r.stats.Future++
	}
	return false
}

// AckDue reports whether a client event arrived since the last Ack: the
// server sends a datagram this tick even if it has nothing else.
func (r *GBNReceiver) AckDue() bool { return r.due }

// Ack returns the ServerAck to put on the datagram being built, and false
// once linger has passed since the last client event (or before any). It
// clears AckDue.
func (r *GBNReceiver) Ack(now time.Time) (wire.ServerAck, bool) {
	r.due = false
	if r.lastAt.IsZero() || now.Sub(r.lastAt) > r.linger {
		return wire.ServerAck{}, false
	}
	return wire.ServerAck{Ack: r.next - 1}, true
}
