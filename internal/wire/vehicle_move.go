package wire

// VehicleMove (0x1C) is a snapshot of a shown, moving vehicle
// (docs/protocol.md).
//
//	[u8 packet_id = 0x1C]
//	[u32 seq]             // the server tick of the snapshot
//	[u16 vehicle_id]      // 1..=1999
//	[f32 x, y, z]         // within world bounds
//	[f32 qx, qy, qz, qw]  // a unit quaternion
//	[f32 vx, vy, vz]      // each within ±200
//	[u16 health]          // 0..=1000
//
// Total: 49 bytes. Server → Client, unreliable lane, sequenced per
// vehicle_id. Both sides check the ranges; seq order and whether the vehicle
// is shown are the client's stateful checks.
type VehicleMove struct {
	Seq       uint32  `json:"seq"`
	VehicleID uint16  `json:"vehicle_id"`
	X         float32 `json:"x"`
	Y         float32 `json:"y"`
	Z         float32 `json:"z"`
	QX        float32 `json:"qx"`
	QY        float32 `json:"qy"`
	QZ        float32 `json:"qz"`
	QW        float32 `json:"qw"`
	VX        float32 `json:"vx"`
	VY        float32 `json:"vy"`
	VZ        float32 `json:"vz"`
	Health    uint16  `json:"health"`
}

const (
	IDVehicleMove  = 0x1C
	VehicleMoveLen = 49
)

func init() { register(IDVehicleMove, func() Packet { return new(VehicleMove) }) }

func (*VehicleMove) ID() byte       { return IDVehicleMove }
func (*VehicleMove) Name() string   { return "VehicleMove" }
func (*VehicleMove) Dir() Direction { return ServerToClient }
func (*VehicleMove) Len() int       { return VehicleMoveLen }

func (p *VehicleMove) Append(b []byte) []byte {
	b = append(b, IDVehicleMove)
	b = appendU32(b, p.Seq)
	b = appendU16(b, p.VehicleID)
	b = appendF32(b, p.X)
	b = appendF32(b, p.Y)
	b = appendF32(b, p.Z)
	b = appendF32(b, p.QX)
	b = appendF32(b, p.QY)
	b = appendF32(b, p.QZ)
	b = appendF32(b, p.QW)
	b = appendF32(b, p.VX)
	b = appendF32(b, p.VY)
	b = appendF32(b, p.VZ)
	b = appendU16(b, p.Health)
	return b
}

func (p *VehicleMove) Parse(b []byte) (int, error) {
	if err := head(b, IDVehicleMove, VehicleMoveLen, "VehicleMove"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.Seq = c.u32()
	p.VehicleID = c.u16()
	p.X = c.f32()
	p.Y = c.f32()
	p.Z = c.f32()
	p.QX = c.f32()
	p.QY = c.f32()
	p.QZ = c.f32()
	p.QW = c.f32()
	p.VX = c.f32()
	p.VY = c.f32()
	p.VZ = c.f32()
	p.Health = c.u16()
	return VehicleMoveLen, nil
}

// CheckSend is the server's check before sending.
func (p *VehicleMove) CheckSend() error { return p.check() }

// CheckRecv is the client decoder's stateless check: what it drops.
func (p *VehicleMove) CheckRecv() error { return p.check() }

func (p *VehicleMove) check() error {
	const pk = "VehicleMove"
	if err := checkVehicleID(pk, p.VehicleID); err != nil {
		return err
	}
	if err := checkVehiclePose(pk, p.X, p.Y, p.Z, p.QX, p.QY, p.QZ, p.QW, p.Health); err != nil {
		return err
	}
	return checkVelocity(pk, p.VX, p.VY, p.VZ)
}
