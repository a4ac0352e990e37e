package gamemode

import (
	"math"
	"time"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/world"
)

// Vehicles: dlmp.create_vehicle, get_vehicle and the Vehicle methods.
// Vehicle ids (1..1999) are reused by the world: a handle names one
// vehicle, and after it is deleted says "vehicle N was deleted" even when
// a new vehicle has its id. Headings are degrees about the vertical axis.

func (m *Mode) installVehicle(L *lua.LState, t *lua.LTable) {
	live := func(id uint32) bool { return id <= math.MaxUint16 && m.w.Vehicle(uint16(id)) != nil }
	m.kinds.vehicle = newIDKind(L, "vehicle", live, map[string]idMethod{
		"model":        func(L *lua.LState, id uint32) int { return push(L, lua.LNumber(m.veh(id).Model())) },
		"position":     func(L *lua.LState, id uint32) int { return pushVec(L, m.veh(id).Position()) },
		"health":       func(L *lua.LState, id uint32) int { return push(L, lua.LNumber(m.veh(id).Health())) },
		"world":        func(L *lua.LState, id uint32) int { return push(L, lua.LNumber(m.veh(id).Scope().World)) },
		"driver":       m.vehicleDriver,
		"set_position": m.vehicleSetPosition,
		"respawn":      func(L *lua.LState, id uint32) int { raiseAs(L, "respawn", m.w.RespawnVehicle(uint16(id))); return 0 },
		"delete":       m.vehicleDelete,
	})
	m.kinds.vehicle.token = func(id uint32) any {
		if v := m.w.Vehicle(uint16(id)); v != nil {
			return v
		}
		return nil
	}
	t.RawSetString("create_vehicle", L.NewFunction(m.createVehicle))
	t.RawSetString("get_vehicle", L.NewFunction(getter(m.kinds.vehicle, "get_vehicle")))
}

func (m *Mode) veh(id uint32) *world.Vehicle { return m.w.Vehicle(uint16(id)) }

// heading is a rotation of deg degrees about the vertical axis.
func heading(deg float64) world.Quat {
	s, c := math.Sincos(deg * math.Pi / 360)
	return world.Quat{Z: float32(s), W: float32(c)}
}

// dlmp.create_vehicle(model, x, y, z [, {heading, color1, color2, world,
// interior, respawn}]) → vehicle. respawn: milliseconds without a driver
// before it returns to where it was created; 0 (default) never.
func (m *Mode) createVehicle(L *lua.LState) int {
	const fn = "create_vehicle"
	o := optTable(L, 5, fn, "heading", "color1", "color2", "world", "interior", "respawn")
	vp := world.VehicleParams{
		Model:   uint16(integer(L, 1, fn, "model", 0, math.MaxUint16)),
		Pos:     vec(L, 2, fn),
		Rot:     heading(o.number("heading", 0)),
		Color1:  uint8(o.integer("color1", 0, 255, 0)),
		Color2:  uint8(o.integer("color2", 0, 255, 0)),
		Scope:   o.scope(),
		Respawn: time.Duration(o.integer("respawn", 0, math.MaxInt32, 0)) * time.Millisecond,
	}
	id, err := m.w.CreateVehicle(vp)
	raise(L, err)
	return push(L, m.kinds.vehicle.get(L, uint32(id)))
}

func (m *Mode) vehicleDriver(L *lua.LState, id uint32) int {
	if p := m.veh(id).Driver(); p != nil {
		return push(L, m.player(p))
	}
	return push(L, lua.LNil)
}

// vehicle:set_position(x, y, z [, heading]): keeps its rotation without a
// heading, and its world and interior.
func (m *Mode) vehicleSetPosition(L *lua.LState, id uint32) int {
	const fn = "set_position"
	v := m.veh(id)
	rot := v.Rotation()
	if L.Get(5) != lua.LNil {
		rot = heading(number(L, 5, fn, "heading"))
	}
	raiseAs(L, fn, m.w.SetVehiclePose(uint16(id), vec(L, 2, fn), rot, v.Scope()))
	return 0
}

func (m *Mode) vehicleDelete(L *lua.LState, id uint32) int {
	err := m.w.DeleteVehicle(uint16(id))
	m.kinds.vehicle.forget(id)
	m.kinds.object.sweep() // what was attached to it went with it
	raiseAs(L, "delete", err)
	return 0
}
