package gamemode

import (
	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/grid"
	"dlmp/internal/world"
)

// Checkpoints: dlmp.create_checkpoint, get_checkpoint and the Checkpoint
// methods. A checkpoint belongs to one player; the server raises
// checkpoint_enter and checkpoint_leave from their position. It goes when
// deleted or when its player leaves (its handle then says "checkpoint N
// was deleted"). Checkpoint ids are never reused.

// checkpointKinds are the names of the checkpoint kinds, by wire value.
var checkpointKinds = map[string]uint8{
	"normal": world.CheckpointNormal, "race": world.CheckpointRace, "race_finish": world.CheckpointRaceFinish,
	"air": world.CheckpointAir, "air_finish": world.CheckpointAirFinish,
}

func (m *Mode) installCheckpoint(L *lua.LState, t *lua.LTable) {
	live := func(id uint32) bool { return m.w.Checkpoint(id) != nil }
	m.kinds.cp = newIDKind(L, "checkpoint", live, map[string]idMethod{
		"position":     func(L *lua.LState, id uint32) int { return pushVec(L, m.w.Checkpoint(id).Params().Pos) },
		"player":       func(L *lua.LState, id uint32) int { return push(L, m.player(m.w.Checkpoint(id).Owner())) },
		"is_inside":    func(L *lua.LState, id uint32) int { return push(L, lua.LBool(m.w.Checkpoint(id).Inside())) },
		"set_position": m.checkpointSetPosition,
		"set_next":     m.checkpointSetNext,
		"delete":       m.checkpointDelete,
	})
	t.RawSetString("create_checkpoint", L.NewFunction(m.createCheckpoint))
	t.RawSetString("get_checkpoint", L.NewFunction(getter(m.kinds.cp, "get_checkpoint")))
}

func (m *Mode) checkpoint(id uint32) *lua.LUserData { return m.kinds.cp.get(m.L, id) }

// dlmp.create_checkpoint(player, x, y, z [, {kind, radius, color, next,
// world, interior}]) → checkpoint. kind is "normal" (default), "race",
// "race_finish", "air" or "air_finish"; next is {x, y, z}, where it points.
func (m *Mode) createCheckpoint(L *lua.LState) int {
	const fn = "create_checkpoint"
	p := m.livePlayer(L, 1)
	o := optTable(L, 5, fn, "kind", "radius", "color", "next", "world", "interior")
	cp := world.CheckpointParams{
		Pos:    vec(L, 2, fn),
		Radius: float32(o.number("radius", 4)),
		Color:  uint32(o.integer("color", 0, 0xFFFFFF, 0xFF0000)),
		Scope:  o.scope(),
	}
	k, ok := checkpointKinds[o.str("kind", "normal")]
	if !ok {
		argFail(L, fn, "kind", "must be \"normal\", \"race\", \"race_finish\", \"air\" or \"air_finish\", got %q", o.str("kind", ""))
	}
	cp.Kind = k
	cp.Next = nextPoint(L, fn, o.get("next"))
	id, err := m.w.CreateCheckpoint(p, cp)
	raise(L, err)
	return push(L, m.checkpoint(id))
}

// nextPoint reads {x, y, z} or nil.
func nextPoint(L *lua.LState, fn string, v lua.LValue) *grid.Vec {
	if v == lua.LNil {
		return nil
	}
	t, ok := v.(*lua.LTable)
	if !ok {
		argFail(L, fn, "next", "must be a table {x, y, z} or nil, got %s", describe(v))
	}
	var xyz [3]float32
	for i := range xyz {
		f, ok := t.RawGetInt(i + 1).(lua.LNumber)
		if !ok {
			argFail(L, fn, "next", "must be a table of 3 numbers {x, y, z}, item %d is %s", i+1, describe(t.RawGetInt(i+1)))
		}
		xyz[i] = float32(f)
	}
	return &grid.Vec{X: xyz[0], Y: xyz[1], Z: xyz[2]}
}

func (m *Mode) checkpointSetPosition(L *lua.LState, id uint32) int {
	cp := m.w.Checkpoint(id).Params()
	cp.Pos = vec(L, 2, "set_position")
	raiseAs(L, "set_position", m.w.SetCheckpoint(id, cp))
	return 0
}

// checkpoint:set_next(x, y, z), or set_next() for no next point.
func (m *Mode) checkpointSetNext(L *lua.LState, id uint32) int {
	cp := m.w.Checkpoint(id).Params()
	cp.Next = nil
	if L.Get(2) != lua.LNil {
		v := vec(L, 2, "set_next")
		cp.Next = &v
	}
	raiseAs(L, "set_next", m.w.SetCheckpoint(id, cp))
	return 0
}

func (m *Mode) checkpointDelete(L *lua.LState, id uint32) int {
	err := m.w.DeleteCheckpoint(id)
	m.kinds.cp.forget(id)
	raiseAs(L, "delete", err)
	return 0
}
