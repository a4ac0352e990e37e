package gamemode

import (
	"io/fs"
	"time"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/grid"
	"dlmp/internal/mapfile"
	"dlmp/internal/world"
)

// dlmp.load_map(path) loads an MTA:SA .map or SA-MP map file from the
// gamemode's folder (package mapfile) into the world and returns
//
//	{
//	  format = "mta" | "samp",
//	  pickups = { pickup, ... },        -- created, in the file's order
//	  objects = { object, ... }, vehicles = { vehicle, ... },
//	  blips = { blip, ... }, zones = { gang_zone, ... },   -- created, shown to everyone
//	  markers = { {kind, x, y, z, size, color, world, interior, line}, ... },
//	  elements = { {tag, line, parent, attrs = {name = value}}, ... },
//	  problems = { {file, line, element, field, rule, note, text}, ... },
//	  not_created = { markers = n, removals = n },
//	}
//
// Objects, vehicles, blips and radar areas (gang zones, shown to everyone)
// are created; what the world refuses is one more problem. Markers are
// not: the world's checkpoints belong to one player, so a map's markers
// come back described, for the gamemode to give each player the
// checkpoints it wants (docs/decisions/0165-map-markers.md). Removals
// (SA-MP RemoveBuildingForPlayer) have no world command yet. An element in
// every world (MTA dimension -1) is placed in world 0.
//
// Pickups are created collectible, with the grant their type implies
// (health and armor: amount points, 100 when the map gives none; a weapon:
// the weapon with amount as ammo) and a respawn: the map's respawn in
// milliseconds (a value below 1000 is read as seconds, as old maps wrote
// it), MapRespawn when it gives none. A pickup the world refuses is one
// more problem.

// MapRespawn is the respawn of a map pickup whose map gives none (MTA:SA's
// createPickup default).
const MapRespawn = 30 * time.Second

func (m *Mode) installMap(L *lua.LState, t *lua.LTable) {
	t.RawSetString("load_map", L.NewFunction(m.loadMap))
}

func (m *Mode) loadMap(L *lua.LState) int {
	const fn = "load_map"
	path := text(L, 1, fn, "path")
	if !fs.ValidPath(path) {
		argFail(L, fn, "path", "must be a path inside the gamemode folder (no \"..\", no leading \"/\"), got %q", path)
	}
	data, err := fs.ReadFile(m.fsys, path)
	if err != nil {
		argFail(L, fn, "path", "%v", err)
	}
	mp, err := mapfile.Parse(data, mapfile.Options{Name: path})
	if err != nil {
		argFail(L, fn, "path", "%v", err)
	}
	return push(L, m.placeMap(L, path, mp))
}

// placeMap creates what the world holds and builds load_map's result.
func (m *Mode) placeMap(L *lua.LState, file string, mp *mapfile.Map) *lua.LTable {
	problems := mp.Problems
	pickups := L.CreateTable(len(mp.Pickups), 0)
	for i := range mp.Pickups {
		mpk := &mp.Pickups[i]
		pp, g := mapPickup(mpk)
		id, err := m.w.CreatePickup(pp)
		if err != nil {
			problems = append(problems, mapfile.Problem{File: file, Line: mpk.Line, Element: "pickup", Rule: err.Error()})
			continue
		}
		if g.kind != 0 {
			m.grants[id] = g
		}
		pickups.Append(m.pickup(id))
	}

	res := L.CreateTable(0, 10)
	res.RawSetString("format", lua.LString(mp.Format.String()))
	res.RawSetString("pickups", pickups)
	pl := placer{m: m, L: L, file: file, problems: problems}
	res.RawSetString("objects", pl.objects(mp.Objects))
	res.RawSetString("vehicles", pl.vehicles(mp.Vehicles))
	res.RawSetString("blips", pl.blips(mp.Blips))
	res.RawSetString("zones", pl.zones(mp.Zones))
	res.RawSetString("markers", markersTable(L, mp.Markers))
	res.RawSetString("elements", elementsTable(L, mp.Elements))
	res.RawSetString("problems", problemsTable(L, pl.problems))
	nc := L.CreateTable(0, 2)
	nc.RawSetString("markers", lua.LNumber(len(mp.Markers)))
	nc.RawSetString("removals", lua.LNumber(len(mp.Removals)))
	res.RawSetString("not_created", nc)
	return res
}

// mapPickup turns a map pickup into the world's parameters and its grant.
func mapPickup(p *mapfile.Pickup) (world.PickupParams, grant) {
	pp := world.PickupParams{
		Model:    uint32(p.Model),
		Pos:      grid.Vec{X: p.Pos.X, Y: p.Pos.Y, Z: p.Pos.Z},
		Behavior: world.Collectible,
		Respawn:  MapRespawn,
		Scope:    grid.Scope{World: int32(max(p.World, 0)), Interior: uint8(max(p.Interior, 0))},
	}
	switch {
	case p.Respawn >= 1000:
		pp.Respawn = time.Duration(p.Respawn) * time.Millisecond
	case p.Respawn > 0:
		pp.Respawn = time.Duration(p.Respawn) * time.Second
	}
	var g grant
	points := p.Amount
	if points <= 0 || points > 100 {
		points = 100
	}
	switch p.Kind {
	case mapfile.PickupHealth:
		g = grant{kind: grantHealth, amount: points}
	case mapfile.PickupArmor:
		g = grant{kind: grantArmor, amount: points}
	case mapfile.PickupWeapon:
		g = grant{kind: grantWeapon, weapon: uint8(p.Weapon), amount: min(p.Amount, 0xFFFF)}
	}
	return pp, g
}

func elementsTable(L *lua.LState, els []mapfile.Element) *lua.LTable {
	t := L.CreateTable(len(els), 0)
	for i := range els {
		e := &els[i]
		et := L.CreateTable(0, 4)
		et.RawSetString("tag", lua.LString(e.Tag))
		et.RawSetString("line", lua.LNumber(e.Line))
		if e.Parent >= 0 {
			et.RawSetString("parent", lua.LNumber(e.Parent+1))
		}
		attrs := L.CreateTable(0, len(e.Attrs))
		for _, a := range e.Attrs {
			attrs.RawSetString(a.Name, lua.LString(a.Value))
		}
		et.RawSetString("attrs", attrs)
		t.Append(et)
	}
	return t
}

func problemsTable(L *lua.LState, ps []mapfile.Problem) *lua.LTable {
	t := L.CreateTable(len(ps), 0)
	for _, p := range ps {
		pt := L.CreateTable(0, 7)
		pt.RawSetString("file", lua.LString(p.File))
		pt.RawSetString("line", lua.LNumber(p.Line))
		pt.RawSetString("element", lua.LString(p.Element))
		pt.RawSetString("field", lua.LString(p.Field))
		pt.RawSetString("rule", lua.LString(p.Rule))
		pt.RawSetString("note", lua.LBool(p.Note))
		pt.RawSetString("text", lua.LString(p.Error()))
		t.Append(pt)
	}
	return t
}
