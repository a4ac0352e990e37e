package transport

import "sync/atomic"

// Drop reasons: why a datagram or packet was dropped without effect.
type DropReason int

const (
	DropEmpty      DropReason = iota // an empty datagram
	DropOversize                     // above the 1200-byte budget
	DropShort                        // too short to carry a token
	DropBadHello                     // a ClientHello with a wrong magic, nonce or padding
	DropBadToken                     // a token no live session has
	DropWrongAddr                    // a live token from another address
	DropRate                         // past the per-connection inbound rate
	DropQueueFull                    // the tick's inbound queue was full
	DropMalformed                    // a packet that cannot be delimited; the rest of its datagram
	DropUnexpected                   // a packet a client never sends (a Server → Client id)
	DropInvalid                      // an accepted event that broke a stateless rule (acked, not acted on)
	DropStale                        // a PlayerSync not newer than the last
	DropWriteQueue                   // outbound datagrams the writer could not take
	numDrops
)

var dropNames = [numDrops]string{
	"empty", "oversize", "short", "bad_hello", "bad_token", "wrong_address", "rate",
	"queue_full", "malformed", "unexpected", "invalid", "stale", "write_queue",
}

func (r DropReason) String() string { return dropNames[r] }

// Stats are the transport's counters, updated by all three goroutines.
type Stats struct {
	DatagramsIn, DatagramsOut atomic.Uint64
	Reads                     atomic.Uint64 // read calls that returned datagrams
	BytesIn, BytesOut         atomic.Uint64
	HelloRetries              atomic.Uint64 // HelloRetry answers
	HelloRefused              atomic.Uint64 // version mismatches answered
	Joined, Left              atomic.Uint64
	// UnreliableReused counts the sessions' unreliable buffers taken while
	// the writer held both of theirs (two ticks behind): kept ones the
	// writer had written since (decision 0315).
	UnreliableReused atomic.Uint64
	// UnreliableDropped counts the unreliable datagrams a tick dropped
	// because the writer held every buffer they could go in (decision 0318).
	UnreliableDropped atomic.Uint64
	// Writes counts the batches the writer wrote (its wake-ups), MessagesOut
	// the messages they held: a session's run of equal-size datagrams is
	// one message, one UDP GSO send (decision 0338).
	Writes, MessagesOut atomic.Uint64
	drops               [numDrops]atomic.Uint64
}

// Drop counts one drop.
func (s *Stats) Drop(r DropReason) { s.drops[r].Add(1) }

// StatsSnapshot is a copy of the counters.
type StatsSnapshot struct {
	DatagramsIn, DatagramsOut uint64
	Reads                     uint64
	BytesIn, BytesOut         uint64
	HelloRetries              uint64
	HelloRefused              uint64
	Joined, Left              uint64
	UnreliableReused          uint64
	UnreliableDropped         uint64
	Writes, MessagesOut       uint64
	Drops                     map[string]uint64
}

func (s *Stats) snapshot() StatsSnapshot {
	out := StatsSnapshot{
		DatagramsIn: s.DatagramsIn.Load(), DatagramsOut: s.DatagramsOut.Load(),
		Reads:   s.Reads.Load(),
		BytesIn: s.BytesIn.Load(), BytesOut: s.BytesOut.Load(),
		HelloRetries: s.HelloRetries.Load(), HelloRefused: s.HelloRefused.Load(),
		Joined: s.Joined.Load(), Left: s.Left.Load(),
		UnreliableReused:  s.UnreliableReused.Load(),
		UnreliableDropped: s.UnreliableDropped.Load(),
		Writes:            s.Writes.Load(), MessagesOut: s.MessagesOut.Load(),
		Drops: map[string]uint64{},
	}
	for i := range s.drops {
		out.Drops[dropNames[i]] = s.drops[i].Load()
	}
	return out
}
