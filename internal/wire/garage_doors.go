package wire

import "math/bits"

// GarageDoors (0x51) sets the open/closed state of the doors of the game's
// garages, server-wide (world.md).
//
//	[u8 packet_id = 0x51]
//	[u32 event_id]
//	[u64 open] // bit id set = the door of garage id is open; id 0..=49, bits 50..63 = 0
//
// Total: 13 bytes. Server → Client, reliable event lane, to every connected
// client on an actual change, as critical. All doors are closed by default;
// the initial mask travels in ServerHello. Both the server and the client
// decoder reject any bit at 50 or above ([CheckGarageMask]).
type GarageDoors struct {
	EventID uint32 `json:"event_id"`
	Open    uint64 `json:"open"`
}

const (
	IDGarageDoors  = 0x51
	GarageDoorsLen = 13
)

// Garages: ids 0..=Garages-1; GarageMask has the bit of every garage set.
const (
	Garages    = 50
	GarageMask = 1<<Garages - 1
)

func init() { register(IDGarageDoors, func() Packet { return new(GarageDoors) }) }

func (*GarageDoors) ID() byte       { return IDGarageDoors }
func (*GarageDoors) Name() string   { return "GarageDoors" }
func (*GarageDoors) Dir() Direction { return ServerToClient }
func (*GarageDoors) Len() int       { return GarageDoorsLen }

func (p *GarageDoors) Append(b []byte) []byte {
	b = append(b, IDGarageDoors)
	b = appendU32(b, p.EventID)
	return appendU64(b, p.Open)
}

func (p *GarageDoors) Parse(b []byte) (int, error) {
	if err := head(b, IDGarageDoors, GarageDoorsLen, "GarageDoors"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.EventID = c.u32()
	p.Open = c.u64()
	return GarageDoorsLen, nil
}

// CheckSend is the server's check before sending: the same rule.
func (p *GarageDoors) CheckSend() error { return CheckGarageMask("GarageDoors", "open", p.Open) }

// CheckRecv is the client decoder's check.
func (p *GarageDoors) CheckRecv() error { return CheckGarageMask("GarageDoors", "open", p.Open) }

// CheckGarageMask checks a mask of open garage doors carried in field of
// packet: only bits 0..=49 may be set. GarageDoors and ServerHello share it.
func CheckGarageMask(packet, field string, mask uint64) error {
	if extra := mask &^ GarageMask; extra != 0 {
		return invalid(packet, field, "bits 50..63 must be 0, got bit %d set (mask 0x%X)", bits.TrailingZeros64(extra), mask)
	}
	return nil
}
