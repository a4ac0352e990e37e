package wire

import (
	"math"
	"slices"
)

// ObjectState (0x8A) shows, changes or hides an object (world.md).
//
//	[u8 packet_id = 0x8A]
//	[u32 event_id]
//	[u32 object_id]           // monotonic, never reused
//	[u8 active]               // 1 = show or replace, 0 = hide (only object_id matters)
//	[u16 model]               // from the server's model table, at most 19999
//	[f32 x, y, z]             // current pose; the offset from the parent when attached
//	[f32 rx, ry, rz]          // degrees, |r| ≤ 3600; relative to the parent when attached
//	[i32 interior]            // 0..255: the interior of the object's scope or of its parent
//	[u8 attach_kind]          // 0 none, 1 player, 2 vehicle, 3 object
//	[u32 attach_id]           // player_id, vehicle_id or object_id; 0 when attach_kind is 0
//	[u32 move_ms]             // time left to the target, 0 = standing; up to 3600000
//	[f32 to_x, to_y, to_z]    // movement target
//	[f32 to_rx, to_ry, to_rz] // degrees, |r| ≤ 3600
//	[u32 rev]                 // object revision; echoed by EntityEdit
//	[u8 bone]                 // 0 = the body's root; 1..17 = a bone of the player (attach_kind 1 only)
//	[u8 broken]               // 0 intact, 1 broken; never on a bone
//
// Total: 79 bytes. Server → Client, reliable event lane. With active = 1 the
// client decoder rejects model, attach_kind, attach_id, interior and move_ms
// out of range, non-finite values, rotations beyond ±3600, a position or
// target outside world bounds (unattached), an offset above 1000 on any axis
// (attached), movement of an attached object, bone above 17, a nonzero bone
// not on a player, broken other than 0 / 1, and a broken object on a bone.
// The server also refuses a model that is not an object model, broken = 1 on
// a model the game cannot break, and a standing object (move_ms = 0, which
// every attached object is) whose target is not its pose (decision 0017).
type ObjectState struct {
	EventID    uint32  `json:"event_id"`
	ObjectID   uint32  `json:"object_id"`
	Active     uint8   `json:"active"`
	Model      uint16  `json:"model"`
	X          float32 `json:"x"`
	Y          float32 `json:"y"`
	Z          float32 `json:"z"`
	RX         float32 `json:"rx"`
	RY         float32 `json:"ry"`
	RZ         float32 `json:"rz"`
	Interior   int32   `json:"interior"`
	AttachKind uint8   `json:"attach_kind"`
	AttachID   uint32  `json:"attach_id"`
	MoveMS     uint32  `json:"move_ms"`
	ToX        float32 `json:"to_x"`
	ToY        float32 `json:"to_y"`
	ToZ        float32 `json:"to_z"`
	ToRX       float32 `json:"to_rx"`
	ToRY       float32 `json:"to_ry"`
	ToRZ       float32 `json:"to_rz"`
	Rev        uint32  `json:"rev"`
	Bone       uint8   `json:"bone"`
	Broken     uint8   `json:"broken"`
}

const (
	IDObjectState  = 0x8A
	ObjectStateLen = 79

	MaxInterior       = 255
	MaxObjectMoveMS   = 3_600_000 // one hour
	MaxObjectRotation = 3600      // degrees, either way
	MaxObjectOffset   = 1000      // meters from the parent, on each axis
	MaxBone           = 17
)

func init() { register(IDObjectState, func() Packet { return new(ObjectState) }) }

func (*ObjectState) ID() byte       { return IDObjectState }
func (*ObjectState) Name() string   { return "ObjectState" }
func (*ObjectState) Dir() Direction { return ServerToClient }
func (*ObjectState) Len() int       { return ObjectStateLen }

// Append writes the fields at their fixed offsets (as Parse reads them)
// into room grown once: a show's or hide's 79 bytes are encoded for every
// object a view's step changes, and 23 appends each checked the capacity.
func (p *ObjectState) Append(b []byte) []byte {
	n := len(b)
	b = slices.Grow(b, ObjectStateLen)[:n+ObjectStateLen]
	m := (*[ObjectStateLen]byte)(b[n:])
	m[0] = IDObjectState
	le.PutUint32(m[1:], p.EventID)
	le.PutUint32(m[5:], p.ObjectID)
	m[9] = p.Active
	le.PutUint16(m[10:], p.Model)
	le.PutUint32(m[12:], math.Float32bits(p.X))
	le.PutUint32(m[16:], math.Float32bits(p.Y))
	le.PutUint32(m[20:], math.Float32bits(p.Z))
	le.PutUint32(m[24:], math.Float32bits(p.RX))
	le.PutUint32(m[28:], math.Float32bits(p.RY))
	le.PutUint32(m[32:], math.Float32bits(p.RZ))
	le.PutUint32(m[36:], uint32(p.Interior))
	m[40] = p.AttachKind
	le.PutUint32(m[41:], p.AttachID)
	le.PutUint32(m[45:], p.MoveMS)
	le.PutUint32(m[49:], math.Float32bits(p.ToX))
	le.PutUint32(m[53:], math.Float32bits(p.ToY))
	le.PutUint32(m[57:], math.Float32bits(p.ToZ))
	le.PutUint32(m[61:], math.Float32bits(p.ToRX))
	le.PutUint32(m[65:], math.Float32bits(p.ToRY))
	le.PutUint32(m[69:], math.Float32bits(p.ToRZ))
	le.PutUint32(m[73:], p.Rev)
	m[77], m[78] = p.Bone, p.Broken
	return b
}

func (p *ObjectState) Parse(b []byte) (int, error) {
	if err := head(b, IDObjectState, ObjectStateLen, "ObjectState"); err != nil {
		return 0, err
	}
	b = b[:ObjectStateLen]
	p.EventID = le.Uint32(b[1:])
	p.ObjectID = le.Uint32(b[5:])
	p.Active = b[9]
	p.Model = le.Uint16(b[10:])
	p.X = f32at(b[12:])
	p.Y = f32at(b[16:])
	p.Z = f32at(b[20:])
	p.RX = f32at(b[24:])
	p.RY = f32at(b[28:])
	p.RZ = f32at(b[32:])
	p.Interior = int32(le.Uint32(b[36:]))
	p.AttachKind = b[40]
	p.AttachID = le.Uint32(b[41:])
	p.MoveMS = le.Uint32(b[45:])
	p.ToX = f32at(b[49:])
	p.ToY = f32at(b[53:])
	p.ToZ = f32at(b[57:])
	p.ToRX = f32at(b[61:])
	p.ToRY = f32at(b[65:])
	p.ToRZ = f32at(b[69:])
	p.Rev = le.Uint32(b[73:])
	p.Bone = b[77]
	p.Broken = b[78]
	return ObjectStateLen, nil
}

// CheckSend is the server's check: the decoder's rules, then the model
// table, breakability, and a standing object's target equal to its pose.
func (p *ObjectState) CheckSend() error {
	const pk = "ObjectState"
	if err := p.CheckRecv(); err != nil || p.Active == 0 {
		return err
	}
	if !IsObjectModel(int(p.Model)) {
		return invalid(pk, "model", "must be an object model of the server's model table, got %d", p.Model)
	}
	if p.Broken == 1 && !IsBreakableModel(int(p.Model)) {
		return invalid(pk, "broken", "must be 0 for model %d, which the game cannot break", p.Model)
	}
	if p.MoveMS != 0 {
		return nil
	}
	for _, f := range [...]struct {
		to, from string
		v, want  float32
	}{
		{"to_x", "x", p.ToX, p.X}, {"to_y", "y", p.ToY, p.Y}, {"to_z", "z", p.ToZ, p.Z},
		{"to_rx", "rx", p.ToRX, p.RX}, {"to_ry", "ry", p.ToRY, p.RY}, {"to_rz", "rz", p.ToRZ, p.RZ},
	} {
		if f.v != f.want {
			return invalid(pk, f.to, "must equal %s %v on a standing object (move_ms 0), got %v", f.from, f.want, f.v)
		}
	}
	return nil
}

// CheckRecv is the client decoder's check.
func (p *ObjectState) CheckRecv() error {
	const pk = "ObjectState"
	if err := checkActive(pk, p.Active); err != nil || p.Active == 0 {
		return err
	}
	if p.Model > MaxModel {
		return invalid(pk, "model", "must be at most %d, got %d", MaxModel, p.Model)
	}
	if err := checkMax(pk, "attach_kind", p.AttachKind, AttachObject); err != nil {
		return err
	}
	if p.AttachKind == AttachNone && p.AttachID != 0 {
		return invalid(pk, "attach_id", "must be 0 when attach_kind is 0, got %d", p.AttachID)
	}
	if p.Interior < 0 || p.Interior > MaxInterior {
		return invalid(pk, "interior", "must be 0..=255, got %d", p.Interior)
	}
	if p.MoveMS > MaxObjectMoveMS {
		return invalid(pk, "move_ms", "must be at most 3600000, got %d", p.MoveMS)
	}
	if err := p.checkPose(); err != nil {
		return err
	}
	if err := checkMax(pk, "bone", p.Bone, MaxBone); err != nil {
		return err
	}
	if p.Bone != 0 && p.AttachKind != AttachPlayer {
		return invalid(pk, "bone", "must be 0 unless attached to a player (attach_kind 1), got %d with attach_kind %d", p.Bone, p.AttachKind)
	}
	if err := checkFlag(pk, "broken", p.Broken); err != nil {
		return err
	}
	if p.Broken == 1 && p.Bone != 0 {
		return invalid(pk, "broken", "must be 0 on a bone (bone %d)", p.Bone)
	}
	return nil
}

// checkPose checks the twelve floats: rotations within ±3600, and either
// position and target within world bounds (unattached) or offsets within
// ±1000, a finite target and no movement (attached). Every one of these
// tests also rejects NaN and ±Inf.
func (p *ObjectState) checkPose() error {
	const pk = "ObjectState"
	if err := checkAbs(pk, "rx", p.RX, MaxObjectRotation); err != nil {
		return err
	}
	if err := checkAbs(pk, "ry", p.RY, MaxObjectRotation); err != nil {
		return err
	}
	if err := checkAbs(pk, "rz", p.RZ, MaxObjectRotation); err != nil {
		return err
	}
	if err := checkAbs(pk, "to_rx", p.ToRX, MaxObjectRotation); err != nil {
		return err
	}
	if err := checkAbs(pk, "to_ry", p.ToRY, MaxObjectRotation); err != nil {
		return err
	}
	if err := checkAbs(pk, "to_rz", p.ToRZ, MaxObjectRotation); err != nil {
		return err
	}
	if p.AttachKind == AttachNone {
		if err := checkIn(pk, "x", "y", "z", p.X, p.Y, p.Z); err != nil {
			return err
		}
		return checkIn(pk, "to_x", "to_y", "to_z", p.ToX, p.ToY, p.ToZ)
	}
	if err := checkAbs(pk, "x", p.X, MaxObjectOffset); err != nil {
		return err
	}
	if err := checkAbs(pk, "y", p.Y, MaxObjectOffset); err != nil {
		return err
	}
	if err := checkAbs(pk, "z", p.Z, MaxObjectOffset); err != nil {
		return err
	}
	if err := checkFinite(pk, "to_x", p.ToX); err != nil {
		return err
	}
	if err := checkFinite(pk, "to_y", p.ToY); err != nil {
		return err
	}
	if err := checkFinite(pk, "to_z", p.ToZ); err != nil {
		return err
	}
	if p.MoveMS != 0 {
		return invalid(pk, "move_ms", "must be 0 on an attached object (attach_kind %d), got %d", p.AttachKind, p.MoveMS)
	}
	return nil
}
