package gamemode

import (
	"math"
	"time"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/world"
)

// Objects: dlmp.create_object, get_object and the Object methods: place,
// move (object_move_end fires when a movement ends), break, attach.
// Rotations are degrees rx, ry, rz. Object ids are never reused; deleting
// an object deletes what is attached below it, and an object with a viewer
// goes when the viewer leaves.

func (m *Mode) installObject(L *lua.LState, t *lua.LTable) {
	live := func(id uint32) bool { return m.w.Object(id) != nil }
	m.kinds.object = newIDKind(L, "object", live, map[string]idMethod{
		"model":        func(L *lua.LState, id uint32) int { return push(L, lua.LNumber(m.w.Object(id).Model())) },
		"position":     m.objectPosition,
		"is_moving":    func(L *lua.LState, id uint32) int { return push(L, lua.LBool(m.w.Object(id).Moving())) },
		"is_broken":    func(L *lua.LState, id uint32) int { return push(L, lua.LBool(m.w.Object(id).Broken())) },
		"set_position": m.objectSetPosition,
		"move":         m.objectMove,
		"stop":         func(L *lua.LState, id uint32) int { raiseAs(L, "stop", m.w.StopObject(id)); return 0 },
		"set_broken":   m.objectSetBroken,
		"attach":       m.objectAttach,
		"detach":       func(L *lua.LState, id uint32) int { raiseAs(L, "detach", m.w.DetachObject(id)); return 0 },
		"delete":       m.objectDelete,
	})
	t.RawSetString("create_object", L.NewFunction(m.createObject))
	t.RawSetString("get_object", L.NewFunction(getter(m.kinds.object, "get_object")))
}

func (m *Mode) object(id uint32) *lua.LUserData { return m.kinds.object.get(m.L, id) }

// dlmp.create_object(model, x, y, z [, {rx, ry, rz, world, interior,
// distance, viewer}]) → object.
func (m *Mode) createObject(L *lua.LState) int {
	const fn = "create_object"
	o := optTable(L, 5, fn, "rx", "ry", "rz", "world", "interior", "distance", "viewer")
	op := world.ObjectParams{
		Model:    uint16(integer(L, 1, fn, "model", 0, math.MaxUint16)),
		Pos:      vec(L, 2, fn),
		Rot:      world.Rot{X: float32(o.number("rx", 0)), Y: float32(o.number("ry", 0)), Z: float32(o.number("rz", 0))},
		Scope:    o.scope(),
		Distance: float32(o.number("distance", 0)),
		Viewer:   m.optPlayer(o, "viewer"),
	}
	id, err := m.w.CreateObject(op)
	raise(L, err)
	return push(L, m.object(id))
}

// object:position() → x, y, z, rx, ry, rz in the world (where an attached
// object is now).
func (m *Mode) objectPosition(L *lua.LState, id uint32) int {
	pos, rot, _ := m.w.WorldPose(id)
	pushVec(L, pos)
	L.Push(lua.LNumber(rot.X))
	L.Push(lua.LNumber(rot.Y))
	L.Push(lua.LNumber(rot.Z))
	return 6
}

// rotArgs reads rx, ry, rz at n.., each defaulting to def's.
func rotArgs(L *lua.LState, n int, fn string, def world.Rot) world.Rot {
	r := def
	for i, p := range []*float32{&r.X, &r.Y, &r.Z} {
		if L.Get(n+i) != lua.LNil {
			*p = coord(L, n+i, fn, [...]string{"rx", "ry", "rz"}[i])
		}
	}
	return r
}

// object:set_position(x, y, z [, rx, ry, rz]): the offset from the parent
// when attached; stops a movement without object_move_end.
func (m *Mode) objectSetPosition(L *lua.LState, id uint32) int {
	const fn = "set_position"
	_, rot, _ := m.w.WorldPose(id)
	if k, _, _ := m.w.Object(id).Attachment(); k != 0 {
		rot = world.Rot{}
	}
	raiseAs(L, fn, m.w.SetObjectPose(id, vec(L, 2, fn), rotArgs(L, 5, fn, rot)))
	return 0
}

// object:move(x, y, z, ms [, rx, ry, rz]): a uniform movement to the
// target over ms milliseconds; object_move_end fires at its end.
func (m *Mode) objectMove(L *lua.LState, id uint32) int {
	const fn = "move"
	to := vec(L, 2, fn)
	ms := integer(L, 5, fn, "ms", 1, int64(world.MaxMoveTime/time.Millisecond))
	_, rot, _ := m.w.WorldPose(id)
	raiseAs(L, fn, m.w.MoveObject(id, to, rotArgs(L, 6, fn, rot), time.Duration(ms)*time.Millisecond))
	return 0
}

func (m *Mode) objectSetBroken(L *lua.LState, id uint32) int {
	raise(L, m.w.SetObjectBroken(id, boolean(L, 2, "set_broken", "broken")))
	return 0
}

// object:attach(parent [, {x, y, z, rx, ry, rz, bone, in_place}]): parent
// is a player, a vehicle or an object; x, y, z the offset.
func (m *Mode) objectAttach(L *lua.LState, id uint32) int {
	const fn = "attach"
	var ap world.AttachParams
	ud, _ := L.Get(2).(*lua.LUserData)
	var r *ref
	if ud != nil {
		r, _ = ud.Value.(*ref)
	}
	switch {
	case r != nil && r.kind == m.kinds.player:
		ap.Kind, ap.ID = world.KindPlayer, uint32(m.livePlayer(L, 2).ID())
	case r != nil && r.kind == m.kinds.vehicle:
		ap.Kind, ap.ID = world.KindVehicle, m.kinds.vehicle.liveArg(L, 2, fn)
	case r != nil && r.kind == m.kinds.object:
		ap.Kind, ap.ID = world.KindObject, m.kinds.object.liveArg(L, 2, fn)
	default:
		argFail(L, fn, "parent", "must be a player, a vehicle or an object, got %s", describe(L.Get(2)))
	}
	o := optTable(L, 3, fn, "x", "y", "z", "rx", "ry", "rz", "bone", "in_place")
	ap.Offset.X, ap.Offset.Y, ap.Offset.Z = float32(o.number("x", 0)), float32(o.number("y", 0)), float32(o.number("z", 0))
	ap.Rot = world.Rot{X: float32(o.number("rx", 0)), Y: float32(o.number("ry", 0)), Z: float32(o.number("rz", 0))}
	ap.Bone = uint8(o.integer("bone", 0, 255, 0))
	ap.InPlace = o.boolean("in_place", false)
	raiseAs(L, fn, m.w.AttachObject(id, ap))
	return 0
}

func (m *Mode) objectDelete(L *lua.LState, id uint32) int {
	err := m.w.DeleteObject(id)
	m.kinds.object.sweep() // its chain went with it
	raiseAs(L, "delete", err)
	return 0
}
