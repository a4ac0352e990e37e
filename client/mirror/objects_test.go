package mirror

import (
	"math"
	"slices"
	"testing"

	"dlmp/internal/wire"
)

const (
	modelBin    = 1337 // BinNt07_LA, an object model
	modelBarrel = 1225 // barrel4, breakable
	modelCar    = 411  // Infernus: a vehicle model, not an object model
)

// standing returns a free standing object.
func standing(id uint32, pos, rot Vec3) *wire.ObjectState {
	p := &wire.ObjectState{ObjectID: id, Active: 1, Model: modelBin}
	p.X, p.Y, p.Z = float32(pos.X), float32(pos.Y), float32(pos.Z)
	p.RX, p.RY, p.RZ = float32(rot.X), float32(rot.Y), float32(rot.Z)
	p.ToX, p.ToY, p.ToZ, p.ToRX, p.ToRY, p.ToRZ = p.X, p.Y, p.Z, p.RX, p.RY, p.RZ
	return p
}

// moving returns a free object moving from pos, rot to to, toRot in ms.
func moving(id uint32, pos, rot, to, toRot Vec3, ms uint32) *wire.ObjectState {
	p := standing(id, pos, rot)
	p.MoveMS = ms
	p.ToX, p.ToY, p.ToZ = float32(to.X), float32(to.Y), float32(to.Z)
	p.ToRX, p.ToRY, p.ToRZ = float32(toRot.X), float32(toRot.Y), float32(toRot.Z)
	return p
}

// attached returns an object attached to kind/id at offset, rot.
func attached(id uint32, kind uint8, parent uint32, off, rot Vec3) *wire.ObjectState {
	p := standing(id, off, rot)
	p.AttachKind, p.AttachID = kind, parent
	return p
}

func hideObject(id uint32) *wire.ObjectState { return &wire.ObjectState{ObjectID: id} }

func TestObjectMovement(t *testing.T) {
	// A step applies show (if any) at ms, then checks object 1.
	type step struct {
		ms       int
		show     *wire.ObjectState
		pos, rot Vec3
		moving   bool
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"uniform and linear from the arrival, standing at the end", []step{
			{1000, moving(1, Vec3{0, 0, 10}, Vec3{}, Vec3{100, 0, 10}, Vec3{0, 0, 90}, 10_000), Vec3{0, 0, 10}, Vec3{}, true},
			{3500, nil, Vec3{25, 0, 10}, Vec3{0, 0, 22.5}, true},
			{6000, nil, Vec3{50, 0, 10}, Vec3{0, 0, 45}, true},
			{11_000, nil, Vec3{100, 0, 10}, Vec3{0, 0, 90}, false},
			{30_000, nil, Vec3{100, 0, 10}, Vec3{0, 0, 90}, false},
		}},
		{"an end between two advances meets the target exactly", []step{
			{0, moving(1, Vec3{1, 2, 3}, Vec3{}, Vec3{4, 5, 6}, Vec3{10, 20, 30}, 333), Vec3{1, 2, 3}, Vec3{}, true},
			{100, nil, Vec3{1 + 300.0/333, 2 + 300.0/333, 3 + 300.0/333}, Vec3{1000.0 / 333, 2000.0 / 333, 3000.0 / 333}, true},
			{1000, nil, Vec3{4, 5, 6}, Vec3{10, 20, 30}, false},
		}},
		{"angles move linearly, not the short way round", []step{
			{0, moving(1, Vec3{}, Vec3{}, Vec3{}, Vec3{0, 0, 350}, 10_000), Vec3{}, Vec3{}, true},
			{5000, nil, Vec3{}, Vec3{0, 0, 175}, true},
		}},
		{"a repeated show carries the time left", []step{
			{0, moving(1, Vec3{}, Vec3{}, Vec3{100, 0, 0}, Vec3{}, 10_000), Vec3{}, Vec3{}, true},
			{5000, nil, Vec3{50, 0, 0}, Vec3{}, true},
			{6000, moving(1, Vec3{60, 0, 0}, Vec3{}, Vec3{100, 0, 0}, Vec3{}, 4_000), Vec3{60, 0, 0}, Vec3{}, true},
			{8000, nil, Vec3{80, 0, 0}, Vec3{}, true},
			{10_000, nil, Vec3{100, 0, 0}, Vec3{}, false},
		}},
		{"a standing show stops a movement where it says", []step{
			{0, moving(1, Vec3{}, Vec3{}, Vec3{100, 0, 0}, Vec3{}, 10_000), Vec3{}, Vec3{}, true},
			{2000, standing(1, Vec3{7, 0, 0}, Vec3{}), Vec3{7, 0, 0}, Vec3{}, false},
			{9000, nil, Vec3{7, 0, 0}, Vec3{}, false},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMirror(t, frozenHello())
			for _, s := range tt.steps {
				if s.show != nil {
					apply(t, m, s.show, at(s.ms))
				}
				m.Advance(at(s.ms))
				o, ok := m.Object(1)
				if !ok {
					t.Fatalf("at %d ms: object 1 not held", s.ms)
				}
				checkVec(t, "position", o.Pos, s.pos)
				checkVec(t, "rotation", o.Rot, s.rot)
				if o.Moving != s.moving {
					t.Errorf("at %d ms: Moving = %v, want %v", s.ms, o.Moving, s.moving)
				}
				want := 0
				if s.moving {
					want = 1
				}
				if got := m.MovingObjects(); got != want {
					t.Errorf("at %d ms: MovingObjects() = %d, want %d", s.ms, got, want)
				}
			}
		})
	}
}

func TestObjectPose(t *testing.T) {
	const other = 3
	const car = 12
	m := newMirror(t, frozenHello())
	spawn(t, m, 1, Vec3{0, 0, 3}, 180, at(0))
	showPlayer(t, m, other, 1, Vec3{100, 0, 5}, 90, at(0))
	apply(t, m, &wire.VehicleShow{
		VehicleID: car, Active: 1, Model: 411, X: 5, Y: 5, Z: 5,
		QX: float32(math.Sqrt2 / 2), QW: float32(math.Sqrt2 / 2), Health: 1000,
	}, at(0))
	for _, p := range []*wire.ObjectState{
		standing(1, Vec3{10, 20, 30}, Vec3{0, 0, 90}),
		attached(2, wire.AttachObject, 1, Vec3{1, 0, 0}, Vec3{0, 0, 90}),
		attached(3, wire.AttachObject, 2, Vec3{0, 1, 0}, Vec3{}),
		attached(4, wire.AttachPlayer, other, Vec3{0, 2, 0}, Vec3{10, 0, 0}),
		attached(5, wire.AttachPlayer, selfID, Vec3{1, 0, 0}, Vec3{}),
		attached(6, wire.AttachVehicle, car, Vec3{0, 1, 0}, Vec3{}),
		func() *wire.ObjectState {
			p := attached(7, wire.AttachPlayer, other, Vec3{5, 5, 5}, Vec3{30, 0, 0})
			p.Bone = 2
			return p
		}(),
		attached(8, wire.AttachPlayer, 40, Vec3{1, 0, 0}, Vec3{}), // player not shown
		attached(9, wire.AttachObject, 10, Vec3{}, Vec3{}),        // a cycle: 9 on 10, 10 on 9
		attached(10, wire.AttachObject, 9, Vec3{}, Vec3{}),
	} {
		apply(t, m, p, at(0))
	}
	tests := []struct {
		id     uint32
		ok     bool
		pos    Vec3
		angles Vec3
	}{
		{1, true, Vec3{10, 20, 30}, Vec3{0, 0, 90}},
		// Parent turned 90°: the offset x becomes y; the rotations add.
		{2, true, Vec3{10, 21, 30}, Vec3{0, 0, 180}},
		// Grandchild: the chain has turned 180°, so +y becomes −y.
		{3, true, Vec3{10, 20, 30}, Vec3{0, 0, 180}},
		// A player parent at heading 90: the offset +y becomes −x; only the
		// heading counts, then the object's own rx.
		{4, true, Vec3{98, 0, 5}, Vec3{10, 0, 90}},
		// The local player, spawned at heading 180.
		{5, true, Vec3{-1, 0, 3}, Vec3{0, 0, 180}},
		// A vehicle turned 90° about x: +y becomes +z.
		{6, true, Vec3{5, 5, 6}, Vec3{90, 0, 0}},
		// On a bone: at the player's root, with the root's heading.
		{7, true, Vec3{100, 0, 5}, Vec3{0, 0, 90}},
		{8, false, Vec3{}, Vec3{}},
		{9, false, Vec3{}, Vec3{}},
		{10, false, Vec3{}, Vec3{}},
		{99, false, Vec3{}, Vec3{}},
	}
	for _, tt := range tests {
		got, ok := m.ObjectPose(tt.id)
		if ok != tt.ok {
			t.Errorf("ObjectPose(%d): ok = %v, want %v", tt.id, ok, tt.ok)
			continue
		}
		if ok {
			checkVec(t, "object position", got.Pos, tt.pos)
			// Angles near rx = ±90 amplify the f32 quaternion's rounding.
			if a := got.Rot.Angles(); a.Sub(tt.angles).Dist2(Vec3{}) > 1e-10 {
				t.Errorf("ObjectPose(%d) angles = %+v, want %+v", tt.id, a, tt.angles)
			}
		}
	}

	// The chain follows its parent: move the player, turn it to heading 0.
	movePlayer(t, m, other, 2, Vec3{200, 0, 5}, 0, at(100))
	got, _ := m.ObjectPose(4)
	checkVec(t, "object 4 after its player moved", got.Pos, Vec3{200, 2, 5})
	// The local player's own moves come from the game.
	m.SetLocalPose(Vec3{10, 10, 10}, 90)
	got, _ = m.ObjectPose(5)
	checkVec(t, "object 5 after the local player moved", got.Pos, Vec3{10, 11, 10})
	// A stale PlayerMove does not move the player back.
	movePlayer(t, m, other, 1, Vec3{100, 0, 5}, 90, at(200))
	got, _ = m.ObjectPose(4)
	checkVec(t, "object 4 after a stale move", got.Pos, Vec3{200, 2, 5})
}

func TestObjectMoveEnd(t *testing.T) {
	m := newMirror(t, frozenHello())
	apply(t, m, moving(1, Vec3{}, Vec3{}, Vec3{1, 0, 0}, Vec3{}, 2500), at(300))
	o, _ := m.Object(1)
	if !o.Moving || !o.EndsAt.Equal(at(2800)) || o.Target != (Vec3{1, 0, 0}) {
		t.Errorf("moving object: Moving %v, EndsAt %v, Target %+v; want true, %v, (1, 0, 0)", o.Moving, o.EndsAt, o.Target, at(2800))
	}
}

func TestObjectFollowsMovingParent(t *testing.T) {
	m := newMirror(t, frozenHello())
	apply(t, m, moving(1, Vec3{0, 0, 0}, Vec3{}, Vec3{10, 0, 0}, Vec3{0, 0, 90}, 1000), at(0))
	apply(t, m, attached(2, wire.AttachObject, 1, Vec3{1, 0, 0}, Vec3{}), at(0))
	m.Advance(at(500)) // parent at (5, 0, 0), turned 45°
	got, _ := m.ObjectPose(2)
	checkVec(t, "child halfway", got.Pos, Vec3{5 + math.Sqrt2/2, math.Sqrt2 / 2, 0})
	m.Advance(at(1000)) // parent at (10, 0, 0), turned 90°
	got, _ = m.ObjectPose(2)
	checkVec(t, "child at the end", got.Pos, Vec3{10, 1, 0})
}

func TestObjectChainDeletion(t *testing.T) {
	const other = 3
	const car = 12
	setup := func(t *testing.T) *Mirror {
		m := newMirror(t, frozenHello())
		showPlayer(t, m, other, 1, Vec3{100, 0, 5}, 0, at(0))
		apply(t, m, &wire.VehicleShow{VehicleID: car, Active: 1, Model: 411, QW: 1, Health: 1000}, at(0))
		for _, p := range []*wire.ObjectState{
			standing(1, Vec3{}, Vec3{}),
			attached(2, wire.AttachObject, 1, Vec3{1, 0, 0}, Vec3{}),
			attached(3, wire.AttachObject, 2, Vec3{1, 0, 0}, Vec3{}),
			attached(4, wire.AttachPlayer, other, Vec3{1, 0, 0}, Vec3{}),
			attached(5, wire.AttachObject, 4, Vec3{1, 0, 0}, Vec3{}),
			attached(6, wire.AttachVehicle, car, Vec3{1, 0, 0}, Vec3{}),
			attached(7, wire.AttachObject, 6, Vec3{1, 0, 0}, Vec3{}),
			standing(8, Vec3{50, 0, 0}, Vec3{}),
		} {
			apply(t, m, p, at(0))
		}
		return m
	}
	tests := []struct {
		name string
		do   []wire.Packet
		want []uint32 // objects held afterwards
	}{
		{"hiding a parent object deletes its chain", []wire.Packet{hideObject(1)}, []uint32{4, 5, 6, 7, 8}},
		{"hiding a middle object deletes the rest of the chain", []wire.Packet{hideObject(2)}, []uint32{1, 4, 5, 6, 7, 8}},
		{"hiding a player deletes what is attached to them", []wire.Packet{&wire.PlayerShow{PlayerID: other}}, []uint32{1, 2, 3, 6, 7, 8}},
		{"hiding a vehicle deletes what is attached to it", []wire.Packet{&wire.VehicleShow{VehicleID: car}}, []uint32{1, 2, 3, 4, 5, 8}},
		{"a re-attached object leaves its old parent's chain",
			[]wire.Packet{attached(3, wire.AttachObject, 8, Vec3{}, Vec3{}), hideObject(1)}, []uint32{3, 4, 5, 6, 7, 8}},
		{"a detached object leaves the chain",
			[]wire.Packet{standing(2, Vec3{}, Vec3{}), hideObject(1)}, []uint32{2, 3, 4, 5, 6, 7, 8}},
		{"a replaced show of the player keeps the chain",
			[]wire.Packet{func() wire.Packet {
				p := &wire.PlayerShow{PlayerID: other, Active: 1, Skin: 5}
				copy(p.PlayerName[:], "Renamed")
				return p
			}()}, []uint32{1, 2, 3, 4, 5, 6, 7, 8}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := setup(t)
			for _, p := range tt.do {
				apply(t, m, p, at(1))
			}
			var got []uint32
			for _, o := range m.Objects() {
				got = append(got, o.ID)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("objects held = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestObjectModelCheck(t *testing.T) {
	m := newMirror(t, frozenHello())
	apply(t, m, standing(1, Vec3{}, Vec3{}), at(0))
	apply(t, m, attached(2, wire.AttachObject, 1, Vec3{1, 0, 0}, Vec3{}), at(0))

	car := standing(3, Vec3{}, Vec3{})
	car.Model = modelCar
	apply(t, m, car, at(0))
	if _, ok := m.Object(3); ok {
		t.Errorf("a vehicle model was created as an object")
	}

	// Replacing object 1 with a non-object model removes the copy; its
	// child waits without a pose, and comes back with a valid show.
	bad := standing(1, Vec3{}, Vec3{})
	bad.Model = modelCar
	apply(t, m, bad, at(0))
	if _, ok := m.Object(1); ok {
		t.Errorf("object 1 still held after a show with a vehicle model")
	}
	if _, ok := m.ObjectPose(2); ok {
		t.Errorf("object 2 has a pose without its parent")
	}
	apply(t, m, standing(1, Vec3{5, 0, 0}, Vec3{}), at(0))
	if got, ok := m.ObjectPose(2); !ok || !nearVec(got.Pos, Vec3{6, 0, 0}) {
		t.Errorf("object 2 after its parent came back: %+v, %v, want (6, 0, 0)", got.Pos, ok)
	}
	if got := m.Stats().ObjectsRefused; got != 2 {
		t.Errorf("ObjectsRefused = %d, want 2", got)
	}
}

func TestObjectCollision(t *testing.T) {
	broken := standing(2, Vec3{}, Vec3{})
	broken.Model, broken.Broken = modelBarrel, 1
	bone := attached(3, wire.AttachPlayer, selfID, Vec3{}, Vec3{})
	bone.Bone = 6
	tests := []struct {
		name string
		p    *wire.ObjectState
		want bool
	}{
		{"intact", standing(1, Vec3{}, Vec3{}), true},
		{"broken", broken, false},
		{"on a bone", bone, false},
	}
	for _, tt := range tests {
		m := newMirror(t, frozenHello())
		apply(t, m, tt.p, at(0))
		o, ok := m.Object(tt.p.ObjectID)
		if !ok {
			t.Fatalf("%s: object not held", tt.name)
		}
		if got := o.Collides(); got != tt.want {
			t.Errorf("%s: Collides() = %v, want %v", tt.name, got, tt.want)
		}
	}
	// 1 → 0 places the copy again intact.
	m := newMirror(t, frozenHello())
	apply(t, m, broken, at(0))
	fixed := *broken
	fixed.Broken = 0
	apply(t, m, &fixed, at(1))
	if o, _ := m.Object(2); !o.Collides() || o.Broken {
		t.Errorf("restored object: Broken %v, Collides %v, want false, true", o.Broken, o.Collides())
	}
}
