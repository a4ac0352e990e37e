package wire

// VehicleShow (0x1A) shows a vehicle to the recipient, or hides it
// (docs/protocol.md).
//
//	[u8 packet_id = 0x1A]
//	[u32 event_id]
//	[u16 vehicle_id]      // 1..=1999
//	[u8 active]           // 1 = show (all fields), 0 = hide (only vehicle_id matters)
//	[u16 model]           // 400..=611
//	[u8 color1]           // the game's palette index
//	[u8 color2]
//	[f32 x, y, z]         // within world bounds
//	[f32 qx, qy, qz, qw]  // a unit quaternion
//	[u16 health]          // 0..=1000
//
// Total: 42 bytes. Server → Client, reliable event lane, critical. Both sides
// reject active other than 0 / 1, vehicle_id outside 1..=1999 and, with
// active = 1, a model, position, rotation or health out of range.
type VehicleShow struct {
	EventID   uint32  `json:"event_id"`
	VehicleID uint16  `json:"vehicle_id"`
	Active    uint8   `json:"active"`
	Model     uint16  `json:"model"`
	Color1    uint8   `json:"color1"`
	Color2    uint8   `json:"color2"`
	X         float32 `json:"x"`
	Y         float32 `json:"y"`
	Z         float32 `json:"z"`
	QX        float32 `json:"qx"`
	QY        float32 `json:"qy"`
	QZ        float32 `json:"qz"`
	QW        float32 `json:"qw"`
	Health    uint16  `json:"health"`
}

const (
	IDVehicleShow  = 0x1A
	VehicleShowLen = 42
)

func init() { register(IDVehicleShow, func() Packet { return new(VehicleShow) }) }

func (*VehicleShow) ID() byte       { return IDVehicleShow }
func (*VehicleShow) Name() string   { return "VehicleShow" }
func (*VehicleShow) Dir() Direction { return ServerToClient }
func (*VehicleShow) Len() int       { return VehicleShowLen }

func (p *VehicleShow) Append(b []byte) []byte {
	b = append(b, IDVehicleShow)
	b = appendU32(b, p.EventID)
	b = appendU16(b, p.VehicleID)
	b = append(b, p.Active)
	b = appendU16(b, p.Model)
	b = append(b, p.Color1)
	b = append(b, p.Color2)
	b = appendF32(b, p.X)
	b = appendF32(b, p.Y)
	b = appendF32(b, p.Z)
	b = appendF32(b, p.QX)
	b = appendF32(b, p.QY)
	b = appendF32(b, p.QZ)
	b = appendF32(b, p.QW)
	b = appendU16(b, p.Health)
	return b
}

func (p *VehicleShow) Parse(b []byte) (int, error) {
	if err := head(b, IDVehicleShow, VehicleShowLen, "VehicleShow"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.EventID = c.u32()
	p.VehicleID = c.u16()
	p.Active = c.u8()
	p.Model = c.u16()
	p.Color1 = c.u8()
	p.Color2 = c.u8()
	p.X = c.f32()
	p.Y = c.f32()
	p.Z = c.f32()
	p.QX = c.f32()
	p.QY = c.f32()
	p.QZ = c.f32()
	p.QW = c.f32()
	p.Health = c.u16()
	return VehicleShowLen, nil
}

// CheckSend is the server's check before sending.
func (p *VehicleShow) CheckSend() error { return p.check() }

// CheckRecv is the client decoder's check: what it drops without an ack.
func (p *VehicleShow) CheckRecv() error { return p.check() }

func (p *VehicleShow) check() error {
	const pk = "VehicleShow"
	if err := checkVehicleID(pk, p.VehicleID); err != nil {
		return err
	}
	if err := checkBool(pk, "active", p.Active); err != nil {
		return err
	}
	if p.Active == 0 {
		return nil
	}
	if p.Model < MinVehicleModel || p.Model > MaxVehicleModel {
		return invalid(pk, "model", "must be a vehicle model 400..=611, got %d", p.Model)
	}
	return checkVehiclePose(pk, p.X, p.Y, p.Z, p.QX, p.QY, p.QZ, p.QW, p.Health)
}

// checkVehiclePose checks what VehicleShow and VehicleMove share: position,
// rotation and health.
func checkVehiclePose(pk string, x, y, z, qx, qy, qz, qw float32, health uint16) error {
	if err := checkWorld(pk, "x", "y", "z", x, y, z); err != nil {
		return err
	}
	if err := checkQuat(pk, qx, qy, qz, qw); err != nil {
		return err
	}
	if health > MaxVehicleHP {
		return invalid(pk, "health", "must be 0..=1000, got %d", health)
	}
	return nil
}
