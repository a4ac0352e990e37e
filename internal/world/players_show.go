package world

import (
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// A player's show is checked and encoded once a rev (decision 0331), as a
// label's is (decision 0295): in the race's crossing streams every view of
// players shows ~80 runners a second, 8000 PlayerShow a tick in all, and
// each was filled, checked (the name's 24 bytes against its set) and
// encoded again for every viewer. What a show carries (skin, color, name)
// changes only with a new rev (playerChanged), but for a skin set and not
// yet given its rev (tickEntities gives it before the views): the bytes are
// kept for the rev and the skin they were encoded with. A hide carries only
// the player id: it is encoded without the check (an id of a player is in
// range) into the world's scratch.

// sendShow sends q o's show, encoded once for o's rev and skin.
func (w *World) sendShow(q, o *Player) {
	e := &o.ent
	if len(e.enc) == 0 || e.encRev != e.rev || e.encSkin != o.skin {
		show := &w.ents.pshow
		*show = wire.PlayerShow{PlayerID: o.id, Active: 1, Skin: o.skin, Color: e.color, PlayerName: e.name}
		if show.CheckSend() != nil { // not reached: skin, color and name are checked when set
			return
		}
		e.enc, e.encRev, e.encSkin = show.Append(e.enc[:0]), e.rev, o.skin
	}
	w.sendEncoded(q, e.enc, lane.Critical)
}

// sendHide sends q the hide of player id.
func (w *World) sendHide(q *Player, id uint16) {
	show := &w.ents.pshow
	*show = wire.PlayerShow{PlayerID: id}
	w.buf = show.Append(w.buf[:0])
	w.sendEncoded(q, w.buf, lane.Critical)
}
