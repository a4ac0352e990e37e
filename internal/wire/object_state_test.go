package wire

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// validMovingObject is a barrel (breakable) moving across Grove Street.
func validMovingObject() Packet {
	return &ObjectState{
		EventID: 21, ObjectID: 1001, Active: 1, Model: 1225,
		X: 2490, Y: -1670, Z: 12.5, RX: 0, RY: 0, RZ: 90,
		Interior: 0, MoveMS: 4000,
		ToX: 2510, ToY: -1670, ToZ: 12.5, ToRX: 0, ToRY: 0, ToRZ: 450,
		Rev: 3,
	}
}

// validStandingObject is a bin standing in an interior: its target is its pose.
func validStandingObject() Packet {
	p := &ObjectState{
		EventID: 22, ObjectID: 1002, Active: 1, Model: 1337,
		X: 1.5, Y: -3.25, Z: 1001, RX: -15, RY: 30, RZ: 359.5, Interior: 3, Rev: 1,
	}
	p.ToX, p.ToY, p.ToZ, p.ToRX, p.ToRY, p.ToRZ = p.X, p.Y, p.Z, p.RX, p.RY, p.RZ
	return p
}

// validAttachedObject is a barrel on a vehicle, broken.
func validAttachedObject() Packet {
	p := &ObjectState{
		EventID: 23, ObjectID: 1003, Active: 1, Model: 1225,
		X: 0.5, Y: -1.25, Z: 0.8, RZ: 90, Interior: 0,
		AttachKind: AttachVehicle, AttachID: 12, Rev: 1, Broken: 1,
	}
	p.ToX, p.ToY, p.ToZ, p.ToRX, p.ToRY, p.ToRZ = p.X, p.Y, p.Z, p.RX, p.RY, p.RZ
	return p
}

// validBoneObject is a helmet on player 4's head.
func validBoneObject() Packet {
	p := &ObjectState{
		EventID: 24, ObjectID: 1004, Active: 1, Model: 18645,
		X: 0.07, Z: 0.01, RX: 90, RZ: 90, Interior: 1,
		AttachKind: AttachPlayer, AttachID: 4, Rev: 2, Bone: 2,
	}
	p.ToX, p.ToY, p.ToZ, p.ToRX, p.ToRY, p.ToRZ = p.X, p.Y, p.Z, p.RX, p.RY, p.RZ
	return p
}

func TestObjectStateExample(t *testing.T) {
	checkExample(t, "object_state.bin", validMovingObject())
	checkTruncated(t, validMovingObject().Append(nil), func() Packet { return new(ObjectState) })
}

type ob = ObjectState

func obj(f func(*ob)) func(Packet) { return on(f) }

// poseField addresses one of the twelve floats: 0..2 position, 3..5
// rotation, 6..8 target position, 9..11 target rotation.
func poseField(p Packet, i int) *float32 {
	o := p.(*ObjectState)
	return []*float32{&o.X, &o.Y, &o.Z, &o.RX, &o.RY, &o.RZ, &o.ToX, &o.ToY, &o.ToZ, &o.ToRX, &o.ToRY, &o.ToRZ}[i]
}

// movingCases: the rules of an unattached, moving object, and the rules on
// the fields every object shares.
func movingCases() []ruleCase {
	cases := []ruleCase{
		{"active 0", obj(func(p *ob) { p.Active = 0 }), ""},
		{"active 2", obj(func(p *ob) { p.Active = 2 }), "active"},
		{"model 19999", obj(func(p *ob) { p.Model = MaxModel }), ""},
		{"model 20000", obj(func(p *ob) { p.Model = MaxModel + 1 }), "model"},
		{"model 65535", obj(func(p *ob) { p.Model = math.MaxUint16 }), "model"},
		{"weapon model 348", obj(func(p *ob) { p.Model = 348 }), ""},
		{"attach_kind 4", obj(func(p *ob) { p.AttachKind = 4 }), "attach_kind"},
		{"attach_id 1 unattached", obj(func(p *ob) { p.AttachID = 1 }), "attach_id"},
		{"interior 0", obj(func(p *ob) { p.Interior = 0 }), ""},
		{"interior 255", obj(func(p *ob) { p.Interior = MaxInterior }), ""},
		{"interior 256", obj(func(p *ob) { p.Interior = MaxInterior + 1 }), "interior"},
		{"interior -1", obj(func(p *ob) { p.Interior = -1 }), "interior"},
		{"interior min", obj(func(p *ob) { p.Interior = math.MinInt32 }), "interior"},
		{"move_ms 3600000", obj(func(p *ob) { p.MoveMS = MaxObjectMoveMS }), ""},
		{"move_ms 3600001", obj(func(p *ob) { p.MoveMS = MaxObjectMoveMS + 1 }), "move_ms"},
		{"move_ms max", obj(func(p *ob) { p.MoveMS = math.MaxUint32 }), "move_ms"},
		{"move_ms 1", obj(func(p *ob) { p.MoveMS = 1 }), ""},
		{"bone 1 unattached", obj(func(p *ob) { p.Bone = 1 }), "bone"},
		{"bone 18", obj(func(p *ob) { p.Bone = MaxBone + 1 }), "bone"},
		{"broken 1", obj(func(p *ob) { p.Broken = 1 }), ""},
		{"broken 2", obj(func(p *ob) { p.Broken = 2 }), "broken"},
		{"broken 255", obj(func(p *ob) { p.Broken = 255 }), "broken"},
	}
	cases = append(cases, worldCases("x", "y", "z", func(p Packet, axis int, v float32) { *poseField(p, axis) = v })...)
	cases = append(cases, worldCases("to_x", "to_y", "to_z", func(p Packet, axis int, v float32) { *poseField(p, 6+axis) = v })...)
	for i, f := range map[int]string{3: "rx", 4: "ry", 5: "rz", 9: "to_rx", 10: "to_ry", 11: "to_rz"} {
		cases = append(cases, floatCases(f, func(p Packet, v float32) { *poseField(p, i) = v }, -MaxObjectRotation, MaxObjectRotation, false)...)
	}
	return cases
}

// movingServerCases: what only the server refuses on a moving object.
var movingServerCases = []ruleCase{
	{"vehicle model 400", obj(func(p *ob) { p.Model = 400 }), "model"},
	{"ped model 0", obj(func(p *ob) { p.Model = 0 }), "model"},
	{"model not in the table", obj(func(p *ob) { p.Model = 329 }), "model"},
	{"broken bin", obj(func(p *ob) { p.Model, p.Broken = 1337, 1 }), "broken"},
}

func TestObjectStateMovingRules(t *testing.T) {
	if IsObjectModel(329) || IsObjectModel(400) || !IsObjectModel(1337) || IsBreakableModel(1337) || !IsBreakableModel(1225) {
		t.Fatal("the model table does not hold what these cases assume")
	}
	checkRules(t, "server", validMovingObject, send, append(movingCases(), movingServerCases...))
	checkRules(t, "client", validMovingObject, recv, append(movingCases(), sendOnly(movingServerCases)...))
	checkHide(t, validMovingObject, 9, append(movingCases(), movingServerCases...))
}

// standingServerCases: a standing object's target is its pose (decision
// 0017); the client only ignores it.
func standingServerCases() []ruleCase {
	var cases []ruleCase
	for i, f := range []string{"to_x", "to_y", "to_z", "to_rx", "to_ry", "to_rz"} {
		cases = append(cases, ruleCase{f + " off the pose", func(p Packet) {
			*poseField(p, 6+i) = math.Nextafter32(*poseField(p, i), inf32)
		}, f})
	}
	return append(cases, ruleCase{"-0 for 0", obj(func(p *ob) { p.ToRX = float32(math.Copysign(0, -1)); p.RX = 0 }), ""})
}

func TestObjectStateStandingRules(t *testing.T) {
	cases := []ruleCase{
		{"target at the far side of the world", obj(func(p *ob) { p.ToX = -WorldXY }), ""},
		{"target outside the world", obj(func(p *ob) { p.ToX = math.Nextafter32(-WorldXY, -inf32) }), "to_x"},
	}
	checkRules(t, "server", validStandingObject, send, standingServerCases())
	checkRules(t, "client", validStandingObject, recv, append(sendOnly(standingServerCases()), cases...))
}

// both sets a pose field and its target, so a standing object stays
// standing and only the rule under test decides.
func both(i int) func(Packet, float32) {
	return func(p Packet, v float32) { *poseField(p, i), *poseField(p, 6+i) = v, v }
}

func attachedCases() []ruleCase {
	cases := []ruleCase{
		{"on a player", obj(func(p *ob) { p.AttachKind, p.Broken = AttachPlayer, 0 }), ""},
		{"on an object", obj(func(p *ob) { p.AttachKind = AttachObject }), ""},
		{"on object 0", obj(func(p *ob) { p.AttachKind, p.AttachID = AttachObject, 0 }), ""},
		{"attach_kind 4", obj(func(p *ob) { p.AttachKind = 4 }), "attach_kind"},
		{"moving 1 ms", obj(func(p *ob) { p.MoveMS = 1 }), "move_ms"},
		{"moving an hour", obj(func(p *ob) { p.MoveMS = MaxObjectMoveMS }), "move_ms"},
		{"bone on a vehicle", obj(func(p *ob) { p.Bone, p.Broken = 1, 0 }), "bone"},
		{"bone on an object", obj(func(p *ob) { p.AttachKind, p.Bone, p.Broken = AttachObject, 1, 0 }), "bone"},
		{"broken on a vehicle", obj(func(p *ob) { p.Broken = 1 }), ""},
		{"offset beyond world z", obj(func(p *ob) { p.Z, p.ToZ = -300, -300 }), ""},
		{"target NaN", obj(func(p *ob) { p.ToY = nan32 }), "to_y"},
		{"target -Inf", obj(func(p *ob) { p.ToZ = -inf32 }), "to_z"},
		{"rotation target past 3600", obj(func(p *ob) { p.ToRZ = math.Nextafter32(MaxObjectRotation, inf32) }), "to_rz"},
	}
	for i, f := range []string{"x", "y", "z"} {
		cases = append(cases, floatCases(f, both(i), -MaxObjectOffset, MaxObjectOffset, false)...)
	}
	for i, f := range []string{"rx", "ry", "rz"} {
		cases = append(cases, floatCases(f, both(3+i), -MaxObjectRotation, MaxObjectRotation, false)...)
	}
	return cases
}

func TestObjectStateAttachedRules(t *testing.T) {
	server := []ruleCase{
		{"target 1000 m off (finite, ignored)", obj(func(p *ob) { p.ToX = 5000 }), "to_x"},
	}
	checkRules(t, "server", validAttachedObject, send, append(attachedCases(), server...))
	client := sendOnly(server)
	for i, f := range []string{"to_x", "to_y", "to_z"} {
		client = append(client, finiteCases(f, func(p Packet, v float32) { *poseField(p, 6+i) = v })...)
	}
	checkRules(t, "client", validAttachedObject, recv, append(attachedCases(), client...))
	checkHide(t, validAttachedObject, 9, attachedCases())
}

func boneCases() []ruleCase {
	return []ruleCase{
		{"bone 0", obj(func(p *ob) { p.Bone = 0 }), ""},
		{"bone 17", obj(func(p *ob) { p.Bone = MaxBone }), ""},
		{"bone 18", obj(func(p *ob) { p.Bone = MaxBone + 1 }), "bone"},
		{"bone 255", obj(func(p *ob) { p.Bone = 255 }), "bone"},
		{"bone on a vehicle", obj(func(p *ob) { p.AttachKind = AttachVehicle }), "bone"},
		{"bone unattached", obj(func(p *ob) { p.AttachKind, p.AttachID = AttachNone, 0 }), "bone"},
		{"broken on a bone", obj(func(p *ob) { p.Model, p.Broken = 1225, 1 }), "broken"},
		{"broken barrel on the root", obj(func(p *ob) { p.Model, p.Broken, p.Bone = 1225, 1, 0 }), ""},
		{"moving on a bone", obj(func(p *ob) { p.MoveMS = 10 }), "move_ms"},
	}
}

func TestObjectStateBoneRules(t *testing.T) {
	checkRules(t, "server", validBoneObject, send, boneCases())
	checkRules(t, "client", validBoneObject, recv, boneCases())
	checkHide(t, validBoneObject, 9, boneCases())
}

func FuzzObjectState(f *testing.F) {
	for _, p := range []Packet{validMovingObject(), validStandingObject(), validAttachedObject(), validBoneObject()} {
		f.Add(p.Append(nil))
	}
	hide := validMovingObject().Append(nil)
	hide[9] = 0
	f.Add(hide)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(ObjectState) }) })
}

func BenchmarkObjectState(b *testing.B) {
	benchCodec(b, validMovingObject(), func() Packet { return new(ObjectState) })
}

// TestObjectStateAppendMatchesAppends compares Append, which writes at
// fixed offsets, with the field-by-field appends it replaced, for random
// fields (any bits: Append checks nothing) after prefixes of any length
// and spare capacity.
func TestObjectStateAppendMatchesAppends(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	f32 := func() float32 { return math.Float32frombits(rng.Uint32()) }
	for i := range 2000 {
		p := &ObjectState{
			EventID: rng.Uint32(), ObjectID: rng.Uint32(), Active: uint8(rng.Uint32()), Model: uint16(rng.Uint32()),
			X: f32(), Y: f32(), Z: f32(), RX: f32(), RY: f32(), RZ: f32(),
			Interior: int32(rng.Uint32()), AttachKind: uint8(rng.Uint32()), AttachID: rng.Uint32(), MoveMS: rng.Uint32(),
			ToX: f32(), ToY: f32(), ToZ: f32(), ToRX: f32(), ToRY: f32(), ToRZ: f32(),
			Rev: rng.Uint32(), Bone: uint8(rng.Uint32()), Broken: uint8(rng.Uint32()),
		}
		prefix := make([]byte, rng.IntN(100), 200)
		for k := range prefix {
			prefix[k] = byte(rng.Uint32())
		}
		b := prefix[: len(prefix) : len(prefix)+rng.IntN(100)]
		want := appendObjectStateFields(slices.Clone(prefix), p)
		if got := p.Append(b); !bytes.Equal(got, want) {
			t.Fatalf("case %d: got % x, want % x", i, got, want)
		}
	}
}

// appendObjectStateFields is ObjectState.Append before it wrote at fixed
// offsets: each field appended in turn.
func appendObjectStateFields(b []byte, p *ObjectState) []byte {
	b = append(b, IDObjectState)
	b = appendU32(b, p.EventID)
	b = appendU32(b, p.ObjectID)
	b = append(b, p.Active)
	b = appendU16(b, p.Model)
	for _, v := range []float32{p.X, p.Y, p.Z, p.RX, p.RY, p.RZ} {
		b = appendF32(b, v)
	}
	b = appendI32(b, p.Interior)
	b = append(b, p.AttachKind)
	b = appendU32(b, p.AttachID)
	b = appendU32(b, p.MoveMS)
	for _, v := range []float32{p.ToX, p.ToY, p.ToZ, p.ToRX, p.ToRY, p.ToRZ} {
		b = appendF32(b, v)
	}
	b = appendU32(b, p.Rev)
	return append(b, p.Bone, p.Broken)
}
