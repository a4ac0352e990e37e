package mirror

import "dlmp/internal/wire"

// The local player (docs/protocol.md "Player state"): its landings, skin,
// health, armour, weapons and wanted level. SpawnPlayer places the player
// alive with the packet's skin, health and armour and no weapons;
// RespawnPlayer brings it back with full health, no armour, the same skin
// and no weapons; TeleportPlayer moves it. Each landing records its
// event_id, which PlayerSync reports as `landed`. Grants add to health and
// armour up to 100, and a weapon to its slot.

// WeaponSlots is the number of weapon slots a player has.
const WeaponSlots = 13

// Weapon is what a weapon slot holds; Weapon 0 with Ammo 0 is empty (slot 0
// holds the fist, weapon 0).
type Weapon struct {
	Weapon uint8
	Ammo   uint32
}

// Local is the local player as the client holds it.
type Local struct {
	ID       uint16 // the own player id of ServerHello
	Spawned  bool   // a SpawnPlayer has been applied
	Landed   uint32 // event_id of the last SpawnPlayer, RespawnPlayer or TeleportPlayer applied; 0 = none
	Pos      Vec3
	Heading  float64 // degrees
	Interior uint8
	World    uint32
	Skin     uint16
	Health   uint8
	Armour   uint8
	Wanted   uint8 // stars, 0..6
	Weapons  [WeaponSlots]Weapon
}

type local struct {
	id      uint16
	spawned bool
	landed  uint32
	pos     Vec3
	heading float64
	inter   uint8
	world   uint32
	skin    uint16
	health  uint8
	armour  uint8
	wanted  uint8
	weapons [WeaponSlots]Weapon
}

func newLocal(id uint16) local { return local{id: id} }

func (l *local) land(event uint32, x, y, z, heading float32, interior uint8, world uint32) {
	l.landed = event
	l.pos = vec32(x, y, z)
	l.heading = float64(heading)
	l.inter, l.world = interior, world
}

func (m *Mirror) applySpawn(p *wire.SpawnPlayer) {
	l := &m.local
	l.land(p.EventID, p.X, p.Y, p.Z, p.Heading, p.Interior, p.World)
	l.spawned = true
	l.skin, l.health, l.armour = p.Skin, p.Health, p.Armour
	l.weapons = [WeaponSlots]Weapon{}
	m.applyPendingWaypoint()
}

func (l *local) respawn(p *wire.RespawnPlayer) {
	l.land(p.EventID, p.X, p.Y, p.Z, p.Heading, p.Interior, p.World)
	l.health, l.armour = 100, 0
	l.weapons = [WeaponSlots]Weapon{}
}

func (l *local) teleport(p *wire.TeleportPlayer) {
	l.land(p.EventID, p.X, p.Y, p.Z, p.Heading, p.Interior, p.World)
}

// giveWeapon puts weapon in its slot: the same weapon gains the ammo, a
// different one replaces the slot's weapon with the given ammo. The ammo
// saturates instead of wrapping.
func (l *local) giveWeapon(weapon uint8, ammo uint16) {
	slot := weaponSlot(weapon)
	if slot < 0 {
		return // the decoder rejects these ids
	}
	w := &l.weapons[slot]
	if w.Weapon != weapon {
		*w = Weapon{Weapon: weapon}
	}
	w.Ammo = min(w.Ammo+uint32(ammo), maxAmmo)
}

// maxAmmo is where a slot's ammo stops growing.
const maxAmmo = 99999

// weaponSlot returns the game's slot of a weapon id, or −1 for an id the
// game does not have.
func weaponSlot(w uint8) int {
	switch {
	case w <= 1:
		return 0 // fist, brass knuckles
	case w <= 9:
		return 1 // melee
	case w <= 15:
		return 10 // gifts
	case w <= 18:
		return 8 // thrown
	case w <= 21:
		return -1
	case w <= 24:
		return 2 // pistols
	case w <= 27:
		return 3 // shotguns
	case w == 28, w == 29, w == 32:
		return 4 // submachine guns
	case w <= 31:
		return 5 // assault rifles
	case w <= 34:
		return 6 // rifles
	case w <= 38:
		return 7 // heavy
	case w == 39:
		return 8 // satchel charge
	case w == 40:
		return 12 // detonator
	case w <= 43:
		return 9 // spray can, extinguisher, camera
	case w <= 46:
		return 11 // goggles, parachute
	}
	return -1
}

// SetLocalPose records where the game has the local player now (it moves
// by itself between landings). Objects attached to the local player and
// Touches use it.
func (m *Mirror) SetLocalPose(pos Vec3, heading float64) {
	m.local.pos, m.local.heading = pos, heading
}

// Local returns the local player.
func (m *Mirror) Local() Local {
	l := &m.local
	return Local{
		ID: l.id, Spawned: l.spawned, Landed: l.landed,
		Pos: l.pos, Heading: l.heading, Interior: l.inter, World: l.world,
		Skin: l.skin, Health: l.health, Armour: l.armour, Wanted: l.wanted,
		Weapons: l.weapons,
	}
}
