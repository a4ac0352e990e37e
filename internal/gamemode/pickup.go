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
	m.kinds.pickup = newKind(L, "pickup", map[string]lua.LGFunction{
		"exists":       m.pickupExists,
		"position":     m.withPickup(pickupPosition),
		"model":        m.withPickup(func(L *lua.LState, pk *world.Pickup) int { return push(L, lua.LNumber(pk.Model())) }),
		"is_active":    m.withPickup(func(L *lua.LState, pk *world.Pickup) int { return push(L, lua.LBool(pk.Active())) }),
		"grant":        m.withPickup(m.pickupGrant),
		"set_position": m.withPickup(m.pickupSetPosition),
		"collect":      m.withPickup(m.pickupCollect),
		"delete":       m.withPickup(m.pickupDelete),
	})
	t.RawSetString("create_pickup", L.NewFunction(m.createPickup))
	t.RawSetString("get_pickup", L.NewFunction(m.getPickup))
	t.RawSetString("collect_pickup", L.NewFunction(func(L *lua.LState) int {
		return m.pickupCollect(L, m.livePickup(L, 1, "collect_pickup"))
	}))
	t.RawSetString("take_pickup", L.NewFunction(m.takePickup))
}

// pickup returns the handle of a live pickup.
func (m *Mode) pickup(id uint32) *lua.LUserData {
	ud := m.pickups[id]
	if ud == nil {
		ud = m.kinds.pickup.handle(m.L, id, nil)
		m.pickups[id] = ud
	}
	return ud
}

// forgetPickup drops what the Mode holds for a pickup the world deleted.
func (m *Mode) forgetPickup(id uint32) {
	if m.w.Pickup(id) == nil {
		delete(m.pickups, id)
		delete(m.grants, id)
	}
}

// pickupArg reads argument n as a pickup or a pickup id.
func (m *Mode) pickupArg(L *lua.LState, n int, fn string) uint32 {
	if _, ok := L.Get(n).(lua.LNumber); ok {
		return uint32(integer(L, n, fn, "pickup", 1, math.MaxUint32))
	}
	if _, ok := L.Get(n).(*lua.LUserData); !ok {
		argFail(L, fn, "pickup", "must be a pickup or a pickup id, got %s", describe(L.Get(n)))
	}
	return refOf(L, n, m.kinds.pickup).id
}

// livePickup reads argument n as an existing pickup.
func (m *Mode) livePickup(L *lua.LState, n int, fn string) *world.Pickup {
	_, isID := L.Get(n).(lua.LNumber)
	id := m.pickupArg(L, n, fn)
	pk := m.w.Pickup(id)
	if pk == nil {
		if isID {
			argFail(L, fn, "pickup", "no pickup %d", id)
		}
		L.RaiseError("pickup %d was deleted", id)
	}
	return pk
}

func (m *Mode) withPickup(fn func(L *lua.LState, pk *world.Pickup) int) lua.LGFunction {
	return func(L *lua.LState) int {
		r := refOf(L, 1, m.kinds.pickup)
		pk := m.w.Pickup(r.id)
		if pk == nil {
			L.RaiseError("pickup %d was deleted", r.id)
		}
		return fn(L, pk)
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

func (m *Mode) pickupExists(L *lua.LState) int {
	r := refOf(L, 1, m.kinds.pickup)
	return push(L, lua.LBool(m.w.Pickup(r.id) != nil))
}

func pickupPosition(L *lua.LState, pk *world.Pickup) int {
	p := pk.Position()
	L.Push(lua.LNumber(p.X))
	L.Push(lua.LNumber(p.Y))
	L.Push(lua.LNumber(p.Z))
	return 3
}

func (m *Mode) pickupSetPosition(L *lua.LState, pk *world.Pickup) int {
	const fn = "set_position"
	raise(L, m.w.MovePickup(pk.ID(), grid.Vec{X: coord(L, 2, fn, "x"), Y: coord(L, 3, fn, "y"), Z: coord(L, 4, fn, "z")}))
	return 0
}

func (m *Mode) pickupCollect(L *lua.LState, pk *world.Pickup) int {
	err := m.w.CollectPickup(pk.ID()) // named collect_pickup in errors, both ways
	m.forgetPickup(pk.ID())
	raise(L, err)
	return 0
}

func (m *Mode) pickupDelete(L *lua.LState, pk *world.Pickup) int {
	err := m.w.DeletePickup(pk.ID())
	m.forgetPickup(pk.ID())
	raiseAs(L, "delete", err)
	return 0
}
