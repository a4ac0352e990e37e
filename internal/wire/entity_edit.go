package wire

// EntityEdit (0x0C) asks the server to move or reshape an entity during an
// edit session (docs/protocol.md).
//
//	[u8 packet_id = 0x0C]
//	[u64 token]
//	[u32 event_id]       // position in the Client → Server Go-Back-N stream
//	[u8 kind]            // 0 pickup, 1 gang zone, 2 colshape, 3 object
//	[u32 entity_id]
//	[u32 rev]            // the rev of the show the edit is based on
//	[f32 a_x, a_y, a_z]  // pickup, object: position; zone: (min_x, min_y, 0); colshape: a
//	[f32 b_x, b_y, b_z]  // object: rx, ry, rz; zone: (max_x, max_y, 0); colshape: b; pickup: 0
//
// Total: 46 bytes. Client → Server, Go-Back-N lane. CheckRecv is the server's
// stateless check (the event is acked, then dropped and counted); the session,
// the rev and the colshape's form are its stateful checks, and a refused or
// stale edit gets the entity's show packet as a critical correction.
type EntityEdit struct {
	Token    uint64  `json:"token"`
	EventID  uint32  `json:"event_id"`
	Kind     uint8   `json:"kind"`
	EntityID uint32  `json:"entity_id"`
	Rev      uint32  `json:"rev"`
	AX       float32 `json:"a_x"`
	AY       float32 `json:"a_y"`
	AZ       float32 `json:"a_z"`
	BX       float32 `json:"b_x"`
	BY       float32 `json:"b_y"`
	BZ       float32 `json:"b_z"`
}

const (
	IDEntityEdit  = 0x0C
	EntityEditLen = 46
)

func init() { register(IDEntityEdit, func() Packet { return new(EntityEdit) }) }

func (*EntityEdit) ID() byte       { return IDEntityEdit }
func (*EntityEdit) Name() string   { return "EntityEdit" }
func (*EntityEdit) Dir() Direction { return ClientToServer }
func (*EntityEdit) Len() int       { return EntityEditLen }

func (p *EntityEdit) Append(b []byte) []byte {
	b = append(b, IDEntityEdit)
	b = appendU64(b, p.Token)
	b = appendU32(b, p.EventID)
	b = append(b, p.Kind)
	b = appendU32(b, p.EntityID)
	b = appendU32(b, p.Rev)
	b = appendF32(b, p.AX)
	b = appendF32(b, p.AY)
	b = appendF32(b, p.AZ)
	b = appendF32(b, p.BX)
	b = appendF32(b, p.BY)
	b = appendF32(b, p.BZ)
	return b
}

func (p *EntityEdit) Parse(b []byte) (int, error) {
	if err := head(b, IDEntityEdit, EntityEditLen, "EntityEdit"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.Token = c.u64()
	p.EventID = c.u32()
	p.Kind = c.u8()
	p.EntityID = c.u32()
	p.Rev = c.u32()
	p.AX = c.f32()
	p.AY = c.f32()
	p.AZ = c.f32()
	p.BX = c.f32()
	p.BY = c.f32()
	p.BZ = c.f32()
	return EntityEditLen, nil
}

// CheckSend is the client's check before sending.
func (p *EntityEdit) CheckSend() error { return p.check() }

// CheckRecv is the server's stateless check: what it drops and counts.
func (p *EntityEdit) CheckRecv() error { return p.check() }

func (p *EntityEdit) check() error {
	const pk = "EntityEdit"
	if err := checkToken(pk, p.Token); err != nil {
		return err
	}
	if p.Kind > EditObject {
		return invalid(pk, "kind", "must be 0..=3, got %d", p.Kind)
	}
	names := [6]string{"a_x", "a_y", "a_z", "b_x", "b_y", "b_z"}
	for i, v := range [6]float32{p.AX, p.AY, p.AZ, p.BX, p.BY, p.BZ} {
		if !finite(v) {
			return invalid(pk, names[i], "must be a number, got %v", v)
		}
	}
	switch p.Kind {
	case EditPickup:
		if err := checkPickupXYZ(pk, p.AX, p.AY, p.AZ); err != nil {
			return err
		}
		return checkZeros(pk, names[3:], p.BX, p.BY, p.BZ)
	case EditZone:
		for i, v := range [4]float32{p.AX, p.AY, p.BX, p.BY} {
			if !in(v, -WorldXY, WorldXY) {
				return invalid(pk, [4]string{"a_x", "a_y", "b_x", "b_y"}[i], "must be within ±6000 (world bounds), got %v", v)
			}
		}
		if err := checkZeros(pk, []string{"a_z", "b_z"}, p.AZ, p.BZ); err != nil {
			return err
		}
		if !(p.AX < p.BX) {
			return invalid(pk, "b_x", "max_x must be above min_x (%v), got %v", p.AX, p.BX)
		}
		if !(p.AY < p.BY) {
			return invalid(pk, "b_y", "max_y must be above min_y (%v), got %v", p.AY, p.BY)
		}
		return nil
	case EditColshape:
		if err := checkWorld(pk, "a_x", "a_y", "a_z", p.AX, p.AY, p.AZ); err != nil {
			return err
		}
		for i, v := range [3]float32{p.BX, p.BY, p.BZ} {
			if !in(v, -EditColshapeExtent, EditColshapeExtent) {
				return invalid(pk, names[3+i], "must be within ±12000, got %v", v)
			}
		}
		return nil
	default: // EditObject
		if err := checkWorld(pk, "a_x", "a_y", "a_z", p.AX, p.AY, p.AZ); err != nil {
			return err
		}
		for i, v := range [3]float32{p.BX, p.BY, p.BZ} {
			if !in(v, -MaxEditRotation, MaxEditRotation) {
				return invalid(pk, names[3+i], "must be a rotation within ±3600 degrees, got %v", v)
			}
		}
		return nil
	}
}

// EntityEdit kinds.
const (
	EditPickup   = 0
	EditZone     = 1
	EditColshape = 2
	EditObject   = 3
)

// Limits of EntityEdit, from world.md's packets of the edited entities.
const (
	EditPickupXY       = 4095  // PickupSync: |x|, |y| ≤ 4095
	EditColshapeExtent = 12000 // ColshapeShape: radius and height up to 12000
	MaxEditRotation    = 3600  // ObjectState: degrees, absolute value up to 3600
)

// checkPickupXYZ checks a pickup position: |x|, |y| ≤ 4095, z −200..4000.
func checkPickupXYZ(pk string, x, y, z float32) error {
	if !in(x, -EditPickupXY, EditPickupXY) {
		return invalid(pk, "a_x", "must be within ±4095 (a pickup), got %v", x)
	}
	if !in(y, -EditPickupXY, EditPickupXY) {
		return invalid(pk, "a_y", "must be within ±4095 (a pickup), got %v", y)
	}
	if !in(z, WorldMinZ, WorldMaxZ) {
		return invalid(pk, "a_z", "must be from -200 to 4000, got %v", z)
	}
	return nil
}

// checkZeros checks that fields a kind does not use are 0.
func checkZeros(pk string, names []string, vs ...float32) error {
	for i, v := range vs {
		if v != 0 {
			return invalid(pk, names[i], "must be 0 for this kind, got %v", v)
		}
	}
	return nil
}
