package wire

// PlayerSync (0x0B) is the client's snapshot of its own player
// (docs/protocol.md).
//
//	[u8 packet_id = 0x0B]
//	[u64 token]
//	[u32 seq]             // grows by one per sync
//	[u32 landed]          // event_id of the last SpawnPlayer, RespawnPlayer or TeleportPlayer applied
//	[u8 state]            // 0 not spawned, 1 on foot, 2 driver, 3 passenger, 4 dead
//	[f32 x, y, z]         // within world bounds; a driver's is the vehicle's
//	[f32 heading]         // degrees, [0, 360)
//	[f32 vx, vy, vz]      // m/s, each within ±200
//	[u8 health]           // 0..=100
//	[u8 armour]           // 0..=100
//	[u8 weapon]           // 0..=46 except 19..=21
//	[u8 interior]         // as the client believes it
//	[u32 world]           // as the client believes it
//	[u16 vehicle_id]      // driver or passenger: 1..=1999; otherwise 0
//	[u8 seat]             // passenger: 1..=8; otherwise 0
//	[f32 qx, qy, qz, qw]  // driver: the vehicle's unit quaternion; otherwise 0
//	[u16 vehicle_health]  // driver: 0..=1000; otherwise 0
//
// Total: 75 bytes. Client → Server, unreliable lane, sequenced. CheckRecv is
// the server's stateless check; seq order, `landed` and the scope are its
// stateful checks, plausibility is the world engine's policy.
type PlayerSync struct {
	Token         uint64  `json:"token"`
	Seq           uint32  `json:"seq"`
	Landed        uint32  `json:"landed"`
	State         uint8   `json:"state"`
	X             float32 `json:"x"`
	Y             float32 `json:"y"`
	Z             float32 `json:"z"`
	Heading       float32 `json:"heading"`
	VX            float32 `json:"vx"`
	VY            float32 `json:"vy"`
	VZ            float32 `json:"vz"`
	Health        uint8   `json:"health"`
	Armour        uint8   `json:"armour"`
	Weapon        uint8   `json:"weapon"`
	Interior      uint8   `json:"interior"`
	World         uint32  `json:"world"`
	VehicleID     uint16  `json:"vehicle_id"`
	Seat          uint8   `json:"seat"`
	QX            float32 `json:"qx"`
	QY            float32 `json:"qy"`
	QZ            float32 `json:"qz"`
	QW            float32 `json:"qw"`
	VehicleHealth uint16  `json:"vehicle_health"`
}

// Player states of PlayerSync and PlayerMove.
const (
	StateNotSpawned = 0
	StateOnFoot     = 1
	StateDriver     = 2
	StatePassenger  = 3
	StateDead       = 4
)

const (
	IDPlayerSync  = 0x0B
	PlayerSyncLen = 75
)

func init() { register(IDPlayerSync, func() Packet { return new(PlayerSync) }) }

func (*PlayerSync) ID() byte       { return IDPlayerSync }
func (*PlayerSync) Name() string   { return "PlayerSync" }
func (*PlayerSync) Dir() Direction { return ClientToServer }
func (*PlayerSync) Len() int       { return PlayerSyncLen }

func (p *PlayerSync) Append(b []byte) []byte {
	b = append(b, IDPlayerSync)
	b = appendU64(b, p.Token)
	b = appendU32(b, p.Seq)
	b = appendU32(b, p.Landed)
	b = append(b, p.State)
	for _, v := range [...]float32{p.X, p.Y, p.Z, p.Heading, p.VX, p.VY, p.VZ} {
		b = appendF32(b, v)
	}
	b = append(b, p.Health, p.Armour, p.Weapon, p.Interior)
	b = appendU32(b, p.World)
	b = appendU16(b, p.VehicleID)
	b = append(b, p.Seat)
	for _, v := range [...]float32{p.QX, p.QY, p.QZ, p.QW} {
		b = appendF32(b, v)
	}
	return appendU16(b, p.VehicleHealth)
}

func (p *PlayerSync) Parse(b []byte) (int, error) {
	if err := head(b, IDPlayerSync, PlayerSyncLen, "PlayerSync"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.Token = c.u64()
	p.Seq = c.u32()
	p.Landed = c.u32()
	p.State = c.u8()
	p.X, p.Y, p.Z = c.f32(), c.f32(), c.f32()
	p.Heading = c.f32()
	p.VX, p.VY, p.VZ = c.f32(), c.f32(), c.f32()
	p.Health = c.u8()
	p.Armour = c.u8()
	p.Weapon = c.u8()
	p.Interior = c.u8()
	p.World = c.u32()
	p.VehicleID = c.u16()
	p.Seat = c.u8()
	p.QX, p.QY, p.QZ, p.QW = c.f32(), c.f32(), c.f32(), c.f32()
	p.VehicleHealth = c.u16()
	return PlayerSyncLen, nil
}

// CheckSend is the client's check before sending.
func (p *PlayerSync) CheckSend() error { return p.check() }

// CheckRecv is the server's stateless check: what it drops and counts.
func (p *PlayerSync) CheckRecv() error { return p.check() }

func (p *PlayerSync) check() error {
	const pk = "PlayerSync"
	if err := checkToken(pk, p.Token); err != nil {
		return err
	}
	if p.State > StateDead {
		return invalid(pk, "state", "must be 0..=4, got %d", p.State)
	}
	if err := checkBody(pk, p.X, p.Y, p.Z, p.Heading, p.VX, p.VY, p.VZ, p.Health, p.Armour, p.Weapon); err != nil {
		return err
	}
	if err := checkSeating(pk, p.State, p.VehicleID, p.Seat); err != nil {
		return err
	}
	if p.State == StateDriver {
		if err := checkQuat(pk, p.QX, p.QY, p.QZ, p.QW); err != nil {
			return err
		}
		if p.VehicleHealth > MaxVehicleHP {
			return invalid(pk, "vehicle_health", "must be 0..=1000, got %d", p.VehicleHealth)
		}
		return nil
	}
	if p.QX != 0 || p.QY != 0 || p.QZ != 0 || p.QW != 0 {
		return invalid(pk, "qw", "must be 0, 0, 0, 0 when not driving, got (%v, %v, %v, %v)", p.QX, p.QY, p.QZ, p.QW)
	}
	if p.VehicleHealth != 0 {
		return invalid(pk, "vehicle_health", "must be 0 when not driving, got %d", p.VehicleHealth)
	}
	return nil
}

// checkBody checks the fields PlayerSync and PlayerMove share: position,
// heading, velocity, health, armour and weapon.
func checkBody(pk string, x, y, z, heading, vx, vy, vz float32, health, armour, weapon uint8) error {
	if err := checkWorld(pk, "x", "y", "z", x, y, z); err != nil {
		return err
	}
	if err := checkHeading(pk, heading); err != nil {
		return err
	}
	if err := checkVelocity(pk, vx, vy, vz); err != nil {
		return err
	}
	if err := checkPoints(pk, "health", health); err != nil {
		return err
	}
	if err := checkPoints(pk, "armour", armour); err != nil {
		return err
	}
	return checkWeapon(pk, weapon)
}

// checkSeating checks vehicle_id and seat against the state: a driver has a
// vehicle and seat 0, a passenger a vehicle and seat 1..=8, anyone else
// neither.
func checkSeating(pk string, state uint8, vehicle uint16, seat uint8) error {
	inVehicle := state == StateDriver || state == StatePassenger
	switch {
	case inVehicle:
		if err := checkVehicleID(pk, vehicle); err != nil {
			return err
		}
	case vehicle != 0:
		return invalid(pk, "vehicle_id", "must be 0 outside a vehicle (state %d), got %d", state, vehicle)
	}
	switch {
	case state == StatePassenger && (seat == 0 || seat > MaxSeat):
		return invalid(pk, "seat", "must be 1..=8 for a passenger, got %d", seat)
	case state != StatePassenger && seat != 0:
		return invalid(pk, "seat", "must be 0 unless a passenger (state %d), got %d", state, seat)
	}
	return nil
}
