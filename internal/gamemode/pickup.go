package gamemode

import (
	"math"
	"time"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/grid"
	"dlmp/internal/world"
)

// Pickups: dlmp.create_pickup, get_pickup, collect_pickup, take_pickup and
// the Pickup methods. Pickup ids are never reused, so a handle names one
// pickup for ever; after the pickup is deleted (delete, or collected with
// no respawn) its methods raise "pickup N was deleted".

func (m *Mode) installPickup(L *lua.LState, t *lua.LTable) {
	m.kinds.pickup = newIDKind(L, "pickup", func(id uint32) bool { return m.w.Pickup(id) != nil }, map[string]idMethod{
		"position":     m.pickupPosition,
		"model":        func(L *lua.LState, id uint32) int { return push(L, lua.LNumber(m.w.Pickup(id).Model())) },
		"is_active":    func(L *lua.LState, id uint32) int { return push(L, lua.LBool(m.w.Pickup(id).Active())) },
		"grant":        m.pickupGrant,
		"set_position": m.pickupSetPosition,
		"collect":      m.pickupCollect,
		"delete":       m.pickupDelete,
	})
	t.RawSetString("create_pickup", L.NewFunction(m.createPickup))
	t.RawSetString("get_pickup", L.NewFunction(m.getPickup))
	t.RawSetString("collect_pickup", L.NewFunction(func(L *lua.LState) int {
		return m.pickupCollect(L, m.kinds.pickup.liveArg(L, 1, "collect_pickup"))
	}))
	t.RawSetString("take_pickup", L.NewFunction(m.takePickup))
}

// pickup returns the handle of a live pickup.
func (m *Mode) pickup(id uint32) *lua.LUserData { return m.kinds.pickup.get(m.L, id) }

// forgetPickup drops what the Mode holds for a pickup the world deleted.
func (m *Mode) forgetPickup(id uint32) {
	m.kinds.pickup.forget(id)
	if m.w.Pickup(id) == nil {
		delete(m.grants, id)
	}
}

// dlmp.create_pickup(model, x, y, z [, options]) → pickup.
func (m *Mode) createPickup(L *lua.LState) int {
	const fn = "create_pickup"
	o := optTable(L, 5, fn, "scale", "highlight", "world", "interior", "behavior", "respawn", "grant")
	pp := world.PickupParams{
		Model: uint32(integer(L, 1, fn, "model", 0, math.MaxUint32)),
		Pos:   grid.Vec{X: coord(L, 2, fn, "x"), Y: coord(L, 3, fn, "y"), Z: coord(L, 4, fn, "z")},
	}
	pp.Scale = float32(o.number("scale", 1))
	pp.NoHighlight = !o.boolean("highlight", true)
	pp.Scope = grid.Scope{World: int32(o.integer("world", 0, math.MaxInt32, 0)), Interior: uint8(o.integer("interior", 0, math.MaxUint8, 0))}
	switch b := o.str("behavior", "collectible"); b {
	case "collectible":
		pp.Behavior = world.Collectible
	case "static":
		pp.Behavior = world.Static
	default:
		argFail(L, fn, "behavior", "must be \"collectible\" or \"static\", got %q", b)
	}
	pp.Respawn = time.Duration(o.integer("respawn", 0, math.MaxInt32, 0)) * time.Millisecond
	g, hasGrant := readGrant(L, fn, o.get("grant"))
	id, err := m.w.CreatePickup(pp)
	raise(L, err)
	if hasGrant {
		m.grants[id] = g
	}
	return push(L, m.pickup(id))
}

// dlmp.get_pickup(id) → pickup or nil.
func (m *Mode) getPickup(L *lua.LState) int {
	id := integer(L, 1, "get_pickup", "id", 0, math.MaxUint32)
	if m.w.Pickup(uint32(id)) == nil {
		return push(L, lua.LNil)
	}
	return push(L, m.pickup(uint32(id)))
}

func (m *Mode) pickupPosition(L *lua.LState, id uint32) int {
	p := m.w.Pickup(id).Position()
	L.Push(lua.LNumber(p.X))
	L.Push(lua.LNumber(p.Y))
	L.Push(lua.LNumber(p.Z))
	return 3
}

func (m *Mode) pickupSetPosition(L *lua.LState, id uint32) int {
	const fn = "set_position"
	raise(L, m.w.MovePickup(id, grid.Vec{X: coord(L, 2, fn, "x"), Y: coord(L, 3, fn, "y"), Z: coord(L, 4, fn, "z")}))
	return 0
}

// pickupCollect is pickup:collect() and dlmp.collect_pickup (the world
// names both collect_pickup in errors).
func (m *Mode) pickupCollect(L *lua.LState, id uint32) int {
	err := m.w.CollectPickup(id)
	m.forgetPickup(id)
	raise(L, err)
	return 0
}

func (m *Mode) pickupDelete(L *lua.LState, id uint32) int {
	err := m.w.DeletePickup(id)
	m.forgetPickup(id)
	raiseAs(L, "delete", err)
	return 0
}
