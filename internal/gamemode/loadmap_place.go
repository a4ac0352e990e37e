package gamemode

import (
	"math"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/grid"
	"dlmp/internal/mapfile"
	"dlmp/internal/world"
)

// What dlmp.load_map creates besides pickups: objects, vehicles, blips and
// radar areas, each refusal one more problem; and the markers it returns
// described.

type placer struct {
	m        *Mode
	L        *lua.LState
	file     string
	problems []mapfile.Problem
}

// created appends the handle, or records the world's refusal.
func (pl *placer) created(t *lua.LTable, k *kind, id uint32, err error, line int, element string) {
	if err != nil {
		pl.problems = append(pl.problems, mapfile.Problem{File: pl.file, Line: line, Element: element, Rule: err.Error()})
		return
	}
	t.Append(k.get(pl.L, id))
}

func mapScope(p mapfile.Place) grid.Scope {
	return grid.Scope{World: int32(max(p.World, 0)), Interior: uint8(max(p.Interior, 0))}
}

func mapVec(v mapfile.Vec3) grid.Vec { return grid.Vec{X: v.X, Y: v.Y, Z: v.Z} }

func (pl *placer) objects(os []mapfile.Object) *lua.LTable {
	t := pl.L.CreateTable(len(os), 0)
	for i := range os {
		o := &os[i]
		id, err := pl.m.w.CreateObject(world.ObjectParams{
			Model: uint16(o.Model), Pos: mapVec(o.Pos), Rot: world.Rot{X: o.Rot.X, Y: o.Rot.Y, Z: o.Rot.Z},
			Scope: mapScope(o.Place), Distance: min(o.StreamDistance, world.MaxObjectDistance),
		})
		pl.created(t, pl.m.kinds.object, id, err, o.Line, "object")
	}
	return t
}

func (pl *placer) vehicles(vs []mapfile.Vehicle) *lua.LTable {
	t := pl.L.CreateTable(len(vs), 0)
	for i := range vs {
		v := &vs[i]
		vp := world.VehicleParams{Model: uint16(v.Model), Pos: mapVec(v.Pos), Rot: euler(v.Rot), Scope: mapScope(v.Place)}
		if len(v.Colors) == 2 || len(v.Colors) == 4 { // palette ids; RGB triples are not carried
			vp.Color1, vp.Color2 = uint8(v.Colors[0]), uint8(v.Colors[1])
		}
		id, err := pl.m.w.CreateVehicle(vp)
		pl.created(t, pl.m.kinds.vehicle, uint32(id), err, v.Line, "vehicle")
	}
	return t
}

// euler turns degrees applied Rz·Rx·Ry (the objects' order) into a
// quaternion.
func euler(r mapfile.Vec3) world.Quat {
	half := func(d float32) (float64, float64) { return math.Sincos(float64(d) * math.Pi / 360) }
	sx, cx := half(r.X)
	sy, cy := half(r.Y)
	sz, cz := half(r.Z)
	// qz * qx
	w, x, y, z := cz*cx, cz*sx, sz*sx, sz*cx
	// (qz*qx) * qy
	return world.Quat{
		W: float32(w*cy - y*sy),
		X: float32(x*cy - z*sy),
		Y: float32(w*sy + y*cy),
		Z: float32(z*cy + x*sy),
	}
}

func (pl *placer) blips(bs []mapfile.Blip) *lua.LTable {
	t := pl.L.CreateTable(len(bs), 0)
	for i := range bs {
		b := &bs[i]
		size := min(max(float32(b.Size)/2, 0.25), 4) // MTA 0..25, 2 the game's own
		id, err := pl.m.w.CreateBlip(world.BlipParams{
			Sprite: uint8(b.Icon), Color: b.Color.RGB(), Pos: mapVec(b.Pos), Size: size,
			Scope: mapScope(b.Place), DrawDistance: b.Range,
		})
		pl.created(t, pl.m.kinds.blip, id, err, b.Line, "blip")
	}
	return t
}

func (pl *placer) zones(zs []mapfile.Zone) *lua.LTable {
	t := pl.L.CreateTable(len(zs), 0)
	for i := range zs {
		z := &zs[i]
		id, err := pl.m.w.CreateGangZone(world.ZoneParams{
			Min: [2]float32{z.MinX, z.MinY}, Max: [2]float32{z.MaxX, z.MaxY},
			Color: z.Color.RGB(), Alpha: z.Color.A, Scope: mapScope(z.Place),
		})
		if err == nil {
			err = pl.m.w.ShowGangZone(id, nil)
		}
		pl.created(t, pl.m.kinds.zone, id, err, z.Line, "radararea")
	}
	return t
}

func markersTable(L *lua.LState, ms []mapfile.Marker) *lua.LTable {
	t := L.CreateTable(len(ms), 0)
	for _, mk := range ms {
		mt := L.CreateTable(0, 9)
		mt.RawSetString("kind", lua.LString(mk.Kind.String()))
		mt.RawSetString("x", lua.LNumber(mk.Pos.X))
		mt.RawSetString("y", lua.LNumber(mk.Pos.Y))
		mt.RawSetString("z", lua.LNumber(mk.Pos.Z))
		mt.RawSetString("size", lua.LNumber(mk.Size))
		mt.RawSetString("color", lua.LNumber(mk.Color.RGB()))
		mt.RawSetString("world", lua.LNumber(max(mk.World, 0)))
		mt.RawSetString("interior", lua.LNumber(max(mk.Interior, 0)))
		mt.RawSetString("line", lua.LNumber(mk.Line))
		t.Append(mt)
	}
	return t
}
