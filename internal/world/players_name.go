package world

import (
	"fmt"

	"dlmp/internal/wire"
)

// A player's name and color, as other players are shown them (PlayerShow).

// defaultName is the name a player has until the gamemode sets one:
// "Player_<id>".
func defaultName(id uint16) wire.PlayerName {
	var n wire.PlayerName
	copy(n[:], fmt.Sprintf("Player_%d", id))
	return n
}

// Name returns the player's name.
func (p *Player) Name() string { return p.ent.name.String() }

// Color returns the player's name tag and radar color, 0xRRGGBB.
func (p *Player) Color() uint32 { return p.ent.color }

// SetPlayerName sets the name other players are shown (PlayerShow's rules:
// 3..=24 bytes of A-Z a-z 0-9 _ [ ] ( ) . $ @ =); the players p is
// streamed to get a new show.
func (w *World) SetPlayerName(p *Player, name string) error {
	var n wire.PlayerName
	if len(name) > len(n) {
		return &ArgError{Func: "set_name", Arg: "name", Rule: fmt.Sprintf("must be at most %d bytes, got %d", len(n), len(name))}
	}
	copy(n[:], name)
	show := wire.PlayerShow{PlayerID: p.id, Active: 1, Skin: p.skin, Color: p.ent.color, PlayerName: n}
	if err := show.CheckSend(); err != nil {
		return fieldArgErr("set_name", err)
	}
	p.ent.name = n
	w.playerChanged(p)
	return nil
}

// SetPlayerColor sets the player's name tag and radar color, 0xRRGGBB.
func (w *World) SetPlayerColor(p *Player, color uint32) error {
	if color > 0xFFFFFF {
		return &ArgError{Func: "set_color", Arg: "color", Rule: fmt.Sprintf("must be 0xRRGGBB, got %#x", color)}
	}
	p.ent.color = color
	w.playerChanged(p)
	return nil
}
