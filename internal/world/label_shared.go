package world

import "dlmp/internal/lane"

// sharedSender is a connection that queues a reliable packet by reference
// (transport.Session): it keeps msg until the client acknowledges it and
// never writes it, so the caller must never write msg again. A label's
// show, encoded once a revision (Label.enc, never written after) and sent
// to each of its viewers, goes this way: a push writes the lane slot's
// head only, not the show's 291 bytes into a cold slot that the Poll
// reads back (decision 0406). A Conn without it (the tests') gets Send.
type sharedSender interface {
	SendShared(msg []byte, class lane.Class) error
}

// sendShared sends p msg, bytes never written again, by reference when
// p's connection takes it so, as sendEncoded otherwise.
func (w *World) sendShared(p *Player, msg []byte, class lane.Class) {
	c, ok := p.conn.(sharedSender)
	if !ok {
		w.sendEncoded(p, msg, class)
		return
	}
	if p.gone || p.left {
		return
	}
	if err := c.SendShared(msg, class); err != nil {
		w.stats.SendFailed++
		p.gone = true // the transport disconnects the player and calls Leave
	}
}
