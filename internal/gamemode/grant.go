package gamemode

import (
	"math"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/wire"
)

// Grants: what a pickup gives when the gamemode takes it for a player
// (dlmp.take_pickup). The world knows no rewards (world.md: the effect and
// the decision to consume belong to the gamemode); a grant is the
// gamemode's note on a pickup, set by create_pickup's grant option or by
// load_map from the map's pickup type.

type grantKind uint8

const (
	grantHealth grantKind = iota + 1
	grantArmor
	grantWeapon
)

type grant struct {
	kind   grantKind
	amount int // health or armor points 1..100, or ammo
	weapon uint8
}

// readGrant reads {health = n}, {armor = n} or {weapon = id, ammo = n}.
func readGrant(L *lua.LState, fn string, v lua.LValue) (grant, bool) {
	if v == lua.LNil {
		return grant{}, false
	}
	t, ok := v.(*lua.LTable)
	if !ok {
		argFail(L, fn, "grant", "must be a table, got %s", describe(v))
	}
	o := &options{L: L, fn: fn, t: t, prefix: "grant."}
	n := 0
	var g grant
	t.ForEach(func(k, _ lua.LValue) {
		switch k.String() {
		case "health":
			g = grant{kind: grantHealth, amount: int(o.integer("health", 1, 100, 0))}
			n++
		case "armor":
			g = grant{kind: grantArmor, amount: int(o.integer("armor", 1, 100, 0))}
			n++
		case "weapon":
			g.kind, g.weapon = grantWeapon, uint8(o.integer("weapon", 0, math.MaxUint8, 0))
			n++
		case "ammo":
		default:
			argFail(L, fn, "grant", "unknown key %s (health, armor, or weapon with ammo)", k.String())
		}
	})
	if n != 1 {
		argFail(L, fn, "grant", "must hold exactly one of health, armor, weapon")
	}
	if g.kind == grantWeapon {
		g.amount = int(o.integer("ammo", 0, math.MaxUint16, 0))
		if err := (&wire.GiveWeapon{Weapon: g.weapon}).CheckSend(); err != nil {
			argFail(L, fn, "grant.weapon", "%v", err)
		}
	} else if t.RawGetString("ammo") != lua.LNil {
		argFail(L, fn, "grant", "ammo goes with weapon only")
	}
	return g, true
}

// table returns the grant as Lua sees it.
func (g grant) table(L *lua.LState) *lua.LTable {
	t := L.NewTable()
	switch g.kind {
	case grantHealth:
		t.RawSetString("health", lua.LNumber(g.amount))
	case grantArmor:
		t.RawSetString("armor", lua.LNumber(g.amount))
	case grantWeapon:
		t.RawSetString("weapon", lua.LNumber(g.weapon))
		t.RawSetString("ammo", lua.LNumber(g.amount))
	}
	return t
}

func (m *Mode) pickupGrant(L *lua.LState, id uint32) int {
	g, ok := m.grants[id]
	if !ok {
		return push(L, lua.LNil)
	}
	return push(L, g.table(L))
}

// dlmp.take_pickup(player, pickup) → bool: the collectible flow in one
// call. It grants the pickup's grant to the player and collects the
// pickup; it takes nothing and returns false when the grant would do
// nothing (health or armor pickup while that value is already 100).
func (m *Mode) takePickup(L *lua.LState) int {
	const fn = "take_pickup"
	p := m.livePlayer(L, 1)
	pk := m.w.Pickup(m.kinds.pickup.liveArg(L, 2, fn))
	g, ok := m.grants[pk.ID()]
	if !ok {
		argFail(L, fn, "pickup", "pickup %d has no grant", pk.ID())
	}
	if !pk.Active() {
		argFail(L, fn, "pickup", "pickup %d is waiting for its respawn", pk.ID())
	}
	var err error
	switch g.kind {
	case grantHealth:
		if p.Health() >= 100 {
			return push(L, lua.LFalse)
		}
		err = m.w.GiveHealth(p, uint8(g.amount))
	case grantArmor:
		if p.Armour() >= 100 {
			return push(L, lua.LFalse)
		}
		err = m.w.GiveArmor(p, uint8(g.amount))
	case grantWeapon:
		err = m.w.GiveWeapon(p, g.weapon, uint16(g.amount))
	}
	raise(L, err)
	err = m.w.CollectPickup(pk.ID())
	m.forgetPickup(pk.ID())
	raise(L, err)
	return push(L, lua.LTrue)
}
