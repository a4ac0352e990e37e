package wire

import "math"

// PickupSync (0x12) shows, replaces or removes a pickup on the recipient's
// client (world.md).
//
//	[u8 packet_id = 0x12]
//	[u32 event_id]
//	[u32 pickup_id]
//	[u8 active]    // 1 = show (all fields), 0 = remove (only pickup_id matters)
//	[u32 model]    // an object model of the table, weapon models 321..373 included
//	[f32 x][f32 y][f32 z] // |x|, |y| ≤ 4095, z from −200 to 4000
//	[f32 scale]    // 0.1..10; 1.0 = the model's own size
//	[u8 highlight] // 1 = the pickup glows, 0 = glow off
//	[u32 rev]      // pose revision, grows with every move
//
// Total: 35 bytes. Server → Client, reliable event lane. A show of a pickup
// already shown replaces it; a move is a show with a new rev. A remove
// (active = 0) decodes whatever its other fields hold, NaN included; its
// highlight must still be 0 or 1.
//
// The client decoder (CheckRecv) drops the packet without an ack when active
// or highlight is neither 0 nor 1, or, on a show, when the position or the
// scale is out of range. It does not check the model: the client checks model
// and position once more before placing the pickup ([PickupSync.Placement]).
// The server (CheckSend) checks the flags, and model, position and scale on
// every show.
type PickupSync struct {
	EventID   uint32  `json:"event_id"`
	PickupID  uint32  `json:"pickup_id"`
	Active    uint8   `json:"active"`
	Model     uint32  `json:"model"`
	X         float32 `json:"x"`
	Y         float32 `json:"y"`
	Z         float32 `json:"z"`
	Scale     float32 `json:"scale"`
	Highlight uint8   `json:"highlight"`
	Rev       uint32  `json:"rev"`
}

const (
	IDPickupSync  = 0x12
	PickupSyncLen = 35
)

// Pickup bounds: the client places pickups at 1/8 m, so |x| and |y| stop at
// 4095 (4095 × 8 = 32760 fits an int16); z keeps the world bounds.
const (
	PickupXY       = 4095
	PickupMinScale = 0.1
	PickupMaxScale = 10
	// PickupSteps is the client's placement resolution in steps per meter.
	PickupSteps = 8
)

func init() { register(IDPickupSync, func() Packet { return new(PickupSync) }) }

func (*PickupSync) ID() byte       { return IDPickupSync }
func (*PickupSync) Name() string   { return "PickupSync" }
func (*PickupSync) Dir() Direction { return ServerToClient }
func (*PickupSync) Len() int       { return PickupSyncLen }

func (p *PickupSync) Append(b []byte) []byte {
	b = append(b, IDPickupSync)
	b = appendU32(b, p.EventID)
	b = appendU32(b, p.PickupID)
	b = append(b, p.Active)
	b = appendU32(b, p.Model)
	b = appendF32(b, p.X)
	b = appendF32(b, p.Y)
	b = appendF32(b, p.Z)
	b = appendF32(b, p.Scale)
	b = append(b, p.Highlight)
	return appendU32(b, p.Rev)
}

func (p *PickupSync) Parse(b []byte) (int, error) {
	if err := head(b, IDPickupSync, PickupSyncLen, "PickupSync"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.EventID = c.u32()
	p.PickupID = c.u32()
	p.Active = c.u8()
	p.Model = c.u32()
	p.X = c.f32()
	p.Y = c.f32()
	p.Z = c.f32()
	p.Scale = c.f32()
	p.Highlight = c.u8()
	p.Rev = c.u32()
	return PickupSyncLen, nil
}

// CheckSend is the server's check before sending: the flags, and on a show
// the model, the position and the scale.
func (p *PickupSync) CheckSend() error {
	if err := p.checkFlags(); err != nil {
		return err
	}
	if p.Active == 0 {
		return nil
	}
	if err := checkPickupModel(p.Model); err != nil {
		return err
	}
	return p.checkShow()
}

// CheckRecv is the client decoder's check: the flags, and on a show the
// position and the scale.
func (p *PickupSync) CheckRecv() error {
	if p.Active|p.Highlight <= 1 && (p.Active == 0 || p.inRange()) {
		return nil // the fast path of every packet the server sends
	}
	if err := p.checkFlags(); err != nil {
		return err
	}
	return p.checkShow()
}

// inRange reports whether position and scale pass checkShow, without
// building an error; checkShow names the field that does not.
func (p *PickupSync) inRange() bool {
	return in(p.X, -PickupXY, PickupXY) && in(p.Y, -PickupXY, PickupXY) &&
		in(p.Z, WorldMinZ, WorldMaxZ) && in(p.Scale, PickupMinScale, PickupMaxScale)
}

// Placement is the client's check before it places a shown pickup: the
// packet is a show, the model is an object model of the table and the
// position is within the pickup bounds. It returns the position in steps of
// 1/8 m (PickupSteps per meter), rounded to the nearest step, half away
// from zero.
func (p *PickupSync) Placement() (x, y, z int16, err error) {
	if p.Active != 1 {
		return 0, 0, 0, invalid("PickupSync", "active", "must be 1 to place a pickup, got %d", p.Active)
	}
	if err := checkPickupModel(p.Model); err != nil {
		return 0, 0, 0, err
	}
	if err := checkPickupPos(p.X, p.Y, p.Z); err != nil {
		return 0, 0, 0, err
	}
	return pickupStep(p.X), pickupStep(p.Y), pickupStep(p.Z), nil
}

// pickupStep rounds a coordinate already within the pickup bounds to 1/8 m.
func pickupStep(v float32) int16 { return int16(math.Round(float64(v) * PickupSteps)) }

func (p *PickupSync) checkFlags() error {
	if err := checkBool("PickupSync", "active", p.Active); err != nil {
		return err
	}
	return checkBool("PickupSync", "highlight", p.Highlight)
}

func (p *PickupSync) checkShow() error {
	if err := checkPickupPos(p.X, p.Y, p.Z); err != nil {
		return err
	}
	if !in(p.Scale, PickupMinScale, PickupMaxScale) {
		return invalid("PickupSync", "scale", "must be a number from 0.1 to 10, got %v", p.Scale)
	}
	return nil
}

// checkPickupModel checks that a pickup's model is an object model of the
// table (weapon models included; ped and vehicle ids are not object models).
func checkPickupModel(model uint32) error {
	if model > MaxModel || !IsObjectModel(int(model)) {
		return invalid("PickupSync", "model", "must be an object model of the model table, got %d", model)
	}
	return nil
}

// checkPickupPos checks a pickup position: |x|, |y| ≤ 4095 and z within the
// world bounds; NaN and ±Inf fail.
func checkPickupPos(x, y, z float32) error {
	if !in(x, -PickupXY, PickupXY) {
		return invalid("PickupSync", "x", "must be a number within ±4095, got %v", x)
	}
	if !in(y, -PickupXY, PickupXY) {
		return invalid("PickupSync", "y", "must be a number within ±4095, got %v", y)
	}
	if !in(z, WorldMinZ, WorldMaxZ) {
		return invalid("PickupSync", "z", "must be a number from -200 to 4000 (world bounds), got %v", z)
	}
	return nil
}
