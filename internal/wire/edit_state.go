package wire

import "math/bits"

// EditState (0x10) opens, replaces or closes the recipient's edit session
// (docs/protocol.md).
//
//	[u8 packet_id = 0x10]
//	[u32 event_id]
//	[u8 active]      // 1 = open, 0 = closed (kinds and entity_id ignored)
//	[u8 kinds]       // bit 0 pickups, 1 gang zones, 2 colshapes, 3 objects
//	[u32 entity_id]  // 0 = every entity of those kinds shown; else the one entity
//
// Total: 11 bytes. Server → Client, reliable event lane, critical. Both sides
// reject active other than 0 / 1 and, with active = 1, kinds 0, kinds bits
// 4..7 and a nonzero entity_id with more than one kind bit.
type EditState struct {
	EventID  uint32 `json:"event_id"`
	Active   uint8  `json:"active"`
	Kinds    uint8  `json:"kinds"`
	EntityID uint32 `json:"entity_id"`
}

const (
	IDEditState  = 0x10
	EditStateLen = 11
)

func init() { register(IDEditState, func() Packet { return new(EditState) }) }

func (*EditState) ID() byte       { return IDEditState }
func (*EditState) Name() string   { return "EditState" }
func (*EditState) Dir() Direction { return ServerToClient }
func (*EditState) Len() int       { return EditStateLen }

func (p *EditState) Append(b []byte) []byte {
	b = append(b, IDEditState)
	b = appendU32(b, p.EventID)
	b = append(b, p.Active)
	b = append(b, p.Kinds)
	b = appendU32(b, p.EntityID)
	return b
}

func (p *EditState) Parse(b []byte) (int, error) {
	if err := head(b, IDEditState, EditStateLen, "EditState"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.EventID = c.u32()
	p.Active = c.u8()
	p.Kinds = c.u8()
	p.EntityID = c.u32()
	return EditStateLen, nil
}

// CheckSend is the server's check before sending.
func (p *EditState) CheckSend() error { return p.check() }

// CheckRecv is the client decoder's check: what it drops without an ack.
func (p *EditState) CheckRecv() error { return p.check() }

func (p *EditState) check() error {
	const pk = "EditState"
	if err := checkBool(pk, "active", p.Active); err != nil {
		return err
	}
	switch {
	case p.Active == 0:
		return nil
	case p.Kinds == 0:
		return invalid(pk, "kinds", "must name at least one kind in an open session")
	case p.Kinds&^EditAllKinds != 0:
		return invalid(pk, "kinds", "bits 4..7 must be 0, got 0x%02X", p.Kinds)
	case p.EntityID != 0 && bits.OnesCount8(p.Kinds) != 1:
		return invalid(pk, "kinds", "must name exactly one kind with entity_id %d, got 0x%02X", p.EntityID, p.Kinds)
	}
	return nil
}

// Kinds of an edit session (EditState.kinds bits) and of an EntityEdit
// (EntityEdit.kind is the bit number).
const (
	EditPickups   = 1 << EditPickup
	EditZones     = 1 << EditZone
	EditColshapes = 1 << EditColshape
	EditObjects   = 1 << EditObject
	EditAllKinds  = EditPickups | EditZones | EditColshapes | EditObjects
)
