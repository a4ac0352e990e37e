package world

import (
	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// Landing is where a spawn, respawn or teleport puts a player.
type Landing struct {
	Pos      grid.Vec
	Heading  float32 // degrees, 0 ≤ heading < 360
	Interior uint8
	World    uint32
}

// SpawnParams is a spawn: the landing and what the player spawns with.
type SpawnParams struct {
	Landing
	Skin   uint16 // 0..=311 except 74
	Health uint8  // 1..=100
	Armour uint8  // 0..=100
}

// Spawn spawns the player (SpawnPlayer, critical): alive at the point with
// that skin, health and armour and no weapons. It raises the spawn event.
// With objects at the point, SpawnPlayer and the event wait until the
// client acknowledged them (object_landing.go; [Player.Holding]).
func (w *World) Spawn(p *Player, s SpawnParams) error {
	pkt := &wire.SpawnPlayer{X: s.Pos.X, Y: s.Pos.Y, Z: s.Pos.Z, Heading: s.Heading, Skin: s.Skin,
		Interior: s.Interior, World: s.World, Health: s.Health, Armour: s.Armour}
	if err := pkt.CheckSend(); err != nil {
		return argErr("spawn", "params", err)
	}
	// objects: held until the objects at the point are acknowledged (object_landing.go)
	w.holdLanding(p, s.Landing, func() {
		w.send(p, pkt, lane.Critical)
		p.skin, p.health, p.armour = s.Skin, s.Health, s.Armour
		w.land(p, s.Landing)
		p.life = Alive
		w.gm.PlayerSpawn(p)
	})
	return nil
}

// Respawn brings a dead player back (RespawnPlayer, critical) with full
// health, no armour and the same skin. It raises the spawn event. It waits
// for the objects at the point like [World.Spawn].
func (w *World) Respawn(p *Player, l Landing) error {
	if p.life != Dead {
		return stateErr("respawn", "player", "must be dead, is %v", p.life)
	}
	pkt := &wire.RespawnPlayer{X: l.Pos.X, Y: l.Pos.Y, Z: l.Pos.Z, Heading: l.Heading, Interior: l.Interior, World: l.World}
	if err := pkt.CheckSend(); err != nil {
		return argErr("respawn", "landing", err)
	}
	// objects: held until the objects at the point are acknowledged (object_landing.go)
	w.holdLanding(p, l, func() {
		w.send(p, pkt, lane.Critical)
		p.health, p.armour = 100, 0
		w.land(p, l)
		p.life = Alive
		w.gm.PlayerSpawn(p)
	})
	return nil
}

// Teleport moves a living player to the point, scope included
// (TeleportPlayer, critical), after the objects nearest the point; it is
// refused when the send queue has no room for them (object_landing.go).
func (w *World) Teleport(p *Player, l Landing) error {
	if p.life != Alive {
		return stateErr("teleport", "player", "must be alive, is %v", p.life)
	}
	pkt := &wire.TeleportPlayer{X: l.Pos.X, Y: l.Pos.Y, Z: l.Pos.Z, Heading: l.Heading, Interior: l.Interior, World: l.World}
	if err := pkt.CheckSend(); err != nil {
		return argErr("teleport", "landing", err)
	}
	// objects: the floor at the landing goes first, or the teleport is refused (object_landing.go)
	if err := w.landObjects(p, l); err != nil {
		return err
	}
	w.send(p, pkt, lane.Critical)
	w.land(p, l)
	return nil
}

// land records a landing just sent: the player's scope and stream center
// move to the point at once, and syncs from before it are refused until one
// confirms it.
func (w *World) land(p *Player, l Landing) {
	w.primsLanding(p, grid.Scope{World: int32(l.World), Interior: l.Interior}) // checkpoints, colshapes
	p.landing = landing{wait: true, base: p.landed, at: l.Pos, sentAt: w.now}
	p.scope = grid.Scope{World: int32(l.World), Interior: l.Interior}
	p.setPos(l.Pos, w.now)
	p.pickAnchor.Invalidate()
	w.clearLatches(p)
	w.playerLanded(p) // players, vehicles, objects
}

// SetSkin changes the player's skin (SetSkin, critical).
func (w *World) SetSkin(p *Player, skin uint16) error {
	if err := argErr("set_skin", "skin", (&wire.SetSkin{Skin: skin}).CheckSend()); err != nil {
		return err
	}
	p.skin = skin
	return w.send(p, &wire.SetSkin{Skin: skin}, lane.Critical)
}

// SetWanted changes the player's wanted level, 0..=6 (SetWanted, critical).
func (w *World) SetWanted(p *Player, level uint8) error {
	if err := argErr("set_wanted", "level", (&wire.SetWanted{Level: level}).CheckSend()); err != nil {
		return err
	}
	p.wanted = level
	return w.send(p, &wire.SetWanted{Level: level}, lane.Critical)
}

// GiveWeapon grants a weapon and ammo to a living player (GiveWeapon,
// critical).
func (w *World) GiveWeapon(p *Player, weapon uint8, ammo uint16) error {
	return w.grant(p, "give_weapon", "weapon", &wire.GiveWeapon{Weapon: weapon, Ammo: ammo})
}

// GiveHealth grants 1..=100 health points to a living player (GiveHealth,
// critical). The last known health grows at once, capped at 100, so that a
// second touch before the next sync sees it.
func (w *World) GiveHealth(p *Player, amount uint8) error {
	if err := w.grant(p, "give_health", "amount", &wire.GiveHealth{Amount: amount}); err != nil {
		return err
	}
	p.health = uint8(min(int(p.health)+int(amount), 100))
	return nil
}

// GiveArmor grants 1..=100 armour points to a living player (GiveArmor,
// critical).
func (w *World) GiveArmor(p *Player, amount uint8) error {
	if err := w.grant(p, "give_armor", "amount", &wire.GiveArmor{Amount: amount}); err != nil {
		return err
	}
	p.armour = uint8(min(int(p.armour)+int(amount), 100))
	return nil
}

func (w *World) grant(p *Player, fn, arg string, pkt wire.Packet) error {
	if p.life != Alive {
		return stateErr(fn, "player", "must be alive, is %v", p.life)
	}
	if err := pkt.CheckSend(); err != nil {
		return argErr(fn, arg, err)
	}
	return w.send(p, pkt, lane.Critical)
}

// ExplosionDistance is how far, meters, an explosion is sent: to every
// player in its scope whose stream center is within it.
const ExplosionDistance = 300

// CreateExplosion plays an explosion (CreateExplosion, droppable: an effect,
// not state) for every player in the scope within ExplosionDistance.
func (w *World) CreateExplosion(scope grid.Scope, pos grid.Vec, typ uint8, radius float32) error {
	pkt := &wire.CreateExplosion{X: pos.X, Y: pos.Y, Z: pos.Z, Type: typ, Radius: radius}
	if err := pkt.CheckSend(); err != nil {
		return argErr("create_explosion", "params", err)
	}
	for _, p := range w.players {
		if p != nil && p.hasPos && p.scope == scope && grid.Dist2(p.pos, pos) <= ExplosionDistance*ExplosionDistance {
			w.send(p, pkt, lane.Droppable)
		}
	}
	return nil
}

// Kick disconnects the player with reason kicked.
func (w *World) Kick(p *Player) { p.conn.Kick(wire.ReasonKicked) }
