// Package lane holds the reliable and sequenced lanes of the dlmp transport
// as pure state machines: messages and acks in, datagrams and timers out,
// time passed in as an argument. Nothing here starts a goroutine, reads a
// clock or touches a socket, so a simulated link (package simnet) can drive
// every machine in virtual time.
//
// The lanes are:
//
//   - [Sender] and [Receiver]: the Server → Client reliable event lane.
//     Gapless event_ids from 1 written into bytes 1..5 of each message,
//     datagrams packed to the 1200-byte budget, messages above it cut into
//     Fragment (0x0A) packets, selective acks with ClientAck (0x0E), RTT
//     estimation, fast retransmit and retransmission on timeout with backoff.
//   - [GBNSender] and [GBNReceiver]: the Client → Server Go-Back-N lane,
//     event_id in bytes 9..13 (after the u64 token), acked with ServerAck
//     (0x0F).
//   - [Sequence]: the unreliable sequenced lane's receiver, keeping only
//     what is newer than the newest seen.
//
// Every machine is owned by one goroutine (the world's tick for the server
// side, the client's loop for the client side) and is not safe for
// concurrent use. Peer input never panics: what breaks a rule is dropped and
// counted in the machine's Stats, or returned as an error when the protocol
// says the connection ends.
package lane

import (
	"errors"
	"time"
)

// Class says what the sender may do with a message it cannot send.
type Class uint8

const (
	// Critical messages must arrive: a full queue is an error that the
	// caller turns into a disconnect.
	Critical Class = iota + 1
	// Droppable messages are dropped rather than queued when the queue is
	// short of room (a chat line, an explosion): each one that is queued
	// is delivered; none replaces another.
	Droppable
	// Snapshot messages are droppable, and a later one supersedes an
	// earlier one (the periodic RunClock resync): a newer one with the same
	// packet id replaces an older one not yet sent.
	Snapshot
)

func (c Class) String() string {
	switch c {
	case Critical:
		return "critical"
	case Droppable:
		return "droppable"
	case Snapshot:
		return "snapshot"
	}
	return "Class(?)"
}

// maxLevel bounds the link's backoff level: ×1.5 per level reaches
// MaxBackoffRTO from MinRTO in 11.
const maxLevel = 12

// Errors a caller branches on, for errors.Is.
var (
	// ErrQueueFull: a critical message found the send queue full. The
	// caller disconnects the player with this reason.
	ErrQueueFull = errors.New("lane: send queue full")
	// ErrDead: the peer stopped acknowledging; the wrapped error says which
	// event and for how long.
	ErrDead = errors.New("lane: link dead")
	// ErrMessage: a message the caller pushed breaks the lane's framing
	// (too short to carry its event_id, or too long).
	ErrMessage = errors.New("lane: bad message")
	// ErrProtocol: the peer broke a rule that ends the connection (a
	// reassembled message above 65536 bytes, fragments out of order).
	ErrProtocol = errors.New("lane: protocol error")
)

// Timer defaults shared by the senders. RTO = SRTT + 4·RTTVAR + MaxAckDelay,
// clamped to [MinRTO, MaxRTO], backed off ×1.5 per transmission of the
// same event.
const (
	// DefaultInitialRTT is the RTT assumed before the first sample.
	DefaultInitialRTT = 100 * time.Millisecond
	// DefaultMaxAckDelay is the longest the peer holds an ack (one client
	// tick at 30 Hz plus slack). Samples have the reported delay removed,
	// so the timer adds the maximum back.
	DefaultMaxAckDelay = 40 * time.Millisecond
	// AckSlack is what a peer that acks once a tick of its own may hold an
	// ack past that tick: its loop's scheduling (AckDelayOf).
	AckSlack = 10 * time.Millisecond
	// MinRTO and MaxRTO clamp the retransmission timeout before backoff;
	// MaxBackoffRTO clamps it after.
	MinRTO        = 50 * time.Millisecond
	MaxRTO        = 2 * time.Second
	MaxBackoffRTO = 4 * time.Second
	// TimeoutBurst is the most events one Poll retransmits on their
	// timers; the other expired ones wait for the burst's acks. A link
	// that keeps timing out with no new RTT sample gets half as many a
	// round, from its third round on (timeoutBurst).
	TimeoutBurst = 16
	// DupAcks is how many ClientAcks in a row repeating the cumulative ack
	// make every late event the bitfield shows missing lost (markLate).
	DupAcks = 3
	// DefaultMaxTries is how many transmissions of one event go
	// unacknowledged before the link is dead (about 20 s with the clamps).
	DefaultMaxTries = 10
)

// AckDelayOf is the MaxAckDelay of a peer that acks once every tick of
// period tick: the tick and AckSlack. The server's sessions take their
// clients' (1 / sync_hz) and the client the server's, at least as often
// (decision 0423).
func AckDelayOf(tick time.Duration) time.Duration { return tick + AckSlack }
