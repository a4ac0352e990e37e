package world

import (
	"encoding/binary"

	"dlmp/internal/lane"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// A player's show is checked and encoded once a rev (decision 0331), as a
// label's is (decision 0295): in the race's crossing streams every view of
// players shows ~80 runners a second, 8000 PlayerShow a tick in all, and
// each was filled, checked (the name's 24 bytes against its set) and
// encoded again for every viewer. What a show carries (skin, color, name)
// changes only with a new rev (playerChanged), but for a skin set and not
// yet given its rev (tickEntities gives it before the views): the bytes are
// kept for the rev and the skin they were encoded with.
//
// The bytes are kept in a dense table by player id (showEnc, 44 bytes: it
// may straddle two cache lines, and readOps loads both), beside the table
// the views read (playerRef, whose rev is the player's): a show reads them
// there and its rev from the ref, not from the shown player's struct, whose
// lines a crossing's show each read cold (decision 0377). A hide carries only the player id: it is the hide of
// player 0 (hideTemplate, encoded once) with the id written in, not
// filled, encoded and copied for each.

// showEnc is one player's show, encoded for rev and skin; rev 0: none.
type showEnc struct {
	enc  [wire.PlayerShowLen]byte
	skin uint16
	rev  uint32
}

// showOf returns player id's show entry, the table grown to hold it.
func (w *World) showOf(id uint16) *showEnc {
	b := &w.ents.views
	if int(id) >= len(b.shows) {
		b.shows = append(b.shows, make([]showEnc, max(int(id)+1, len(w.players))-len(b.shows))...)
	}
	return &b.shows[id]
}

// sendShow sends q the show of o, player id, encoded once for o's rev and
// skin: of o it reads only the skin (a skin set before its rev is given).
func (w *World) sendShow(q *Player, id uint16, o *Player) {
	s, rev := w.showOf(id), w.ref(id).rev
	if s.rev != rev || s.skin != o.skin || rev == 0 {
		show := &w.ents.pshow
		*show = wire.PlayerShow{PlayerID: o.id, Active: 1, Skin: o.skin, Color: o.ent.color, PlayerName: o.ent.name}
		if show.CheckSend() != nil { // not reached: skin, color and name are checked when set
			return
		}
		show.Append(s.enc[:0])
		s.rev, s.skin = rev, o.skin
	}
	w.sendEncoded(q, s.enc[:], lane.Critical)
}

// hideTemplate is the hide of player 0, encoded (PlayerShow, active 0):
// every hide is it with its player id written in.
var hideTemplate = [wire.PlayerShowLen]byte(new(wire.PlayerShow).Append(nil))

// playerShowIDAt is where PlayerShow's player_id is in its encoding.
const playerShowIDAt = 5

// sendHide sends q the hide of player id.
func (w *World) sendHide(q *Player, id uint16) {
	h := &w.ents.views.hideEnc
	binary.LittleEndian.PutUint16(h[playerShowIDAt:], id)
	w.sendEncoded(q, h[:], lane.Critical)
}

// readOps reads, ahead of sending a view's ops to q, what they read of the
// players they show or hide, and invalidates q's view of objects when one
// of those players carries objects (they come and go with it). Each op's
// player is another player's struct, cold in a crossing: read one op at a
// time between the sends, each was a cache miss waited for in turn; read
// here, in a loop whose loads do not depend on one another, their misses
// overlap. A show's skin, its entry of the show table (both ends: an entry
// may straddle two lines) and its ref are read too (sendShow), their sum
// kept so that the loads are not dropped.
func (w *World) readOps(q *Player, ops []stream.Op) {
	b := &w.ents.views
	var sum uint32
	for _, op := range ops {
		o := w.players[op.ID]
		if o == nil {
			continue
		}
		if len(o.ent.attached) > 0 {
			q.ent.objectAt.Invalidate() // the objects on o come and go with o
		}
		if op.Show && int(op.ID) < len(b.shows) && int(op.ID) < len(b.refs) {
			e := &b.shows[op.ID] // its first and last bytes: both its lines
			sum += uint32(o.skin) + uint32(e.enc[0]) + e.rev + b.refs[op.ID].rev
		}
	}
	b.sink = sum
}
