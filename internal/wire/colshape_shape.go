package wire

// ColshapeShape (0x95) shows, changes or hides the outline of a colshape:
// only its form (world.md).
//
//	[u8 packet_id = 0x95]
//	[u32 event_id]
//	[u32 colshape_id]
//	[u8 active]         // 1 = show or replace, 0 = hide (only colshape_id matters)
//	[u8 form]           // 0 sphere, 1 cylinder, 2 box (axis-aligned)
//	[f32 a_x, a_y, a_z] // sphere: center; cylinder: center of the base; box: min
//	[f32 b_x, b_y, b_z] // sphere: (radius, 0, 0); cylinder: (radius, height, 0); box: max
//	[u32 rev]           // form revision; the rev an EntityEdit of the colshape carries
//
// Total: 39 bytes. Server → Client, reliable event lane. The client decoder
// and the server reject active other than 0 / 1 and, with active = 1, an
// unknown form, non-finite values, a radius or height not above 0 or above
// 12000, nonzero fields the form does not use (−0 counts as zero), a box
// whose min is not below its max on any axis, and a (for a box, also b)
// outside world bounds.
type ColshapeShape struct {
	EventID    uint32  `json:"event_id"`
	ColshapeID uint32  `json:"colshape_id"`
	Active     uint8   `json:"active"`
	Form       uint8   `json:"form"`
	AX         float32 `json:"a_x"`
	AY         float32 `json:"a_y"`
	AZ         float32 `json:"a_z"`
	BX         float32 `json:"b_x"`
	BY         float32 `json:"b_y"`
	BZ         float32 `json:"b_z"`
	Rev        uint32  `json:"rev"`
}

const (
	IDColshapeShape  = 0x95
	ColshapeShapeLen = 39

	MaxColshapeExtent = 12000 // meters: the largest radius or height
)

// Colshape forms.
const (
	FormSphere   = 0
	FormCylinder = 1
	FormBox      = 2
)

func init() { register(IDColshapeShape, func() Packet { return new(ColshapeShape) }) }

func (*ColshapeShape) ID() byte       { return IDColshapeShape }
func (*ColshapeShape) Name() string   { return "ColshapeShape" }
func (*ColshapeShape) Dir() Direction { return ServerToClient }
func (*ColshapeShape) Len() int       { return ColshapeShapeLen }

func (p *ColshapeShape) Append(b []byte) []byte {
	b = append(b, IDColshapeShape)
	b = appendU32(b, p.EventID)
	b = appendU32(b, p.ColshapeID)
	b = append(b, p.Active, p.Form)
	b = appendF32(b, p.AX)
	b = appendF32(b, p.AY)
	b = appendF32(b, p.AZ)
	b = appendF32(b, p.BX)
	b = appendF32(b, p.BY)
	b = appendF32(b, p.BZ)
	return appendU32(b, p.Rev)
}

func (p *ColshapeShape) Parse(b []byte) (int, error) {
	if err := head(b, IDColshapeShape, ColshapeShapeLen, "ColshapeShape"); err != nil {
		return 0, err
	}
	b = b[:ColshapeShapeLen]
	p.EventID = le.Uint32(b[1:])
	p.ColshapeID = le.Uint32(b[5:])
	p.Active = b[9]
	p.Form = b[10]
	p.AX = f32at(b[11:])
	p.AY = f32at(b[15:])
	p.AZ = f32at(b[19:])
	p.BX = f32at(b[23:])
	p.BY = f32at(b[27:])
	p.BZ = f32at(b[31:])
	p.Rev = le.Uint32(b[35:])
	return ColshapeShapeLen, nil
}

// CheckSend is the server's check: the decoder's rules.
func (p *ColshapeShape) CheckSend() error { return p.CheckRecv() }

// CheckRecv is the client decoder's check.
func (p *ColshapeShape) CheckRecv() error {
	const pk = "ColshapeShape"
	if err := checkActive(pk, p.Active); err != nil || p.Active == 0 {
		return err
	}
	if err := checkMax(pk, "form", p.Form, FormBox); err != nil {
		return err
	}
	// Each test below also rejects NaN and ±Inf.
	if err := checkIn(pk, "a_x", "a_y", "a_z", p.AX, p.AY, p.AZ); err != nil {
		return err
	}
	switch p.Form {
	case FormSphere:
		if err := checkExtent("b_x", "radius", p.BX); err != nil {
			return err
		}
		if err := checkUnused("b_y", "a sphere", p.BY); err != nil {
			return err
		}
		return checkUnused("b_z", "a sphere", p.BZ)
	case FormCylinder:
		if err := checkExtent("b_x", "radius", p.BX); err != nil {
			return err
		}
		if err := checkExtent("b_y", "height", p.BY); err != nil {
			return err
		}
		return checkUnused("b_z", "a cylinder", p.BZ)
	}
	if err := checkIn(pk, "b_x", "b_y", "b_z", p.BX, p.BY, p.BZ); err != nil {
		return err
	}
	if !(p.AX < p.BX) {
		return errBoxMax("b_x", "a_x", p.AX, p.BX)
	}
	if !(p.AY < p.BY) {
		return errBoxMax("b_y", "a_y", p.AY, p.BY)
	}
	if !(p.AZ < p.BZ) {
		return errBoxMax("b_z", "a_z", p.AZ, p.BZ)
	}
	return nil
}

func errBoxMax(field, min string, lo, hi float32) error {
	return invalid("ColshapeShape", field, "is the box's max: must be above %s %v, got %v", min, lo, hi)
}

// checkExtent checks a colshape's radius or height: above 0, at most 12000.
func checkExtent(field, what string, v float32) error {
	if v > 0 && v <= MaxColshapeExtent {
		return nil
	}
	return invalid("ColshapeShape", field, "is the %s: must be above 0 and at most 12000, got %v", what, v)
}

// checkUnused checks a field the form does not use: it must be 0.
func checkUnused(field, form string, v float32) error {
	if v == 0 {
		return nil
	}
	return invalid("ColshapeShape", field, "is unused by %s: must be 0, got %v", form, v)
}
