package wire

// PickupTouch (0x13) reports that the local player entered a pickup's touch
// radius (world.md).
//
//	[u8 packet_id = 0x13]
//	[u64 token]     // the sender's session_token
//	[u32 event_id]  // position in the client's Client → Server reliable stream
//	[u32 pickup_id] // server id of the pickup the player touched
//
// Total: 17 bytes. Client → Server, reliable event lane (Go-Back-N, shared
// with ClientChat). The client sends it on the outside → inside transition and
// retries at a low rate while inside; never once per frame.
//
// The server's stateless check (CheckRecv) is only that event_id is not 0:
// event ids start at 1. Everything else it checks is state, outside this
// package: the token against the session, the reliable order, that the player
// is spawned and alive, that the pickup exists, is active, is streamed to this
// player, and that the player's last PlayerSync position is within the touch
// radius. A refused touch is still acknowledged by the lane (it guarantees
// delivery) and does nothing; touches are idempotent by pickup_id.
//
// The client has no value rule before sending (CheckSend): the token and the
// event_id are written by its session and its lane after the packet is built,
// and any pickup_id the server showed it is valid.
type PickupTouch struct {
	Token    uint64 `json:"token"`
	EventID  uint32 `json:"event_id"`
	PickupID uint32 `json:"pickup_id"`
}

const (
	IDPickupTouch  = 0x13
	PickupTouchLen = 17
)

func init() { register(IDPickupTouch, func() Packet { return new(PickupTouch) }) }

func (*PickupTouch) ID() byte       { return IDPickupTouch }
func (*PickupTouch) Name() string   { return "PickupTouch" }
func (*PickupTouch) Dir() Direction { return ClientToServer }
func (*PickupTouch) Len() int       { return PickupTouchLen }

func (p *PickupTouch) Append(b []byte) []byte {
	b = append(b, IDPickupTouch)
	b = appendU64(b, p.Token)
	b = appendU32(b, p.EventID)
	return appendU32(b, p.PickupID)
}

func (p *PickupTouch) Parse(b []byte) (int, error) {
	if err := head(b, IDPickupTouch, PickupTouchLen, "PickupTouch"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.Token = c.u64()
	p.EventID = c.u32()
	p.PickupID = c.u32()
	return PickupTouchLen, nil
}

// CheckSend is the client's check before sending: nothing to check (see the
// type's doc).
func (p *PickupTouch) CheckSend() error { return nil }

// CheckRecv is the server's stateless check: event_id is not 0.
func (p *PickupTouch) CheckRecv() error { return checkClientEvent("PickupTouch", p.EventID) }
