package world

import "math"

// The spread of a label pass's ops (decision 0330). In issue 7's race the
// two streams of runners pass through each other: every view's PlayerLimit
// nearest change by the runners coming the other way, and a viewer's pass
// of the labels on players (label_pass.go, once a second) hides and shows
// the name labels of ~160 of them, a Label3D of 291 bytes each: ~46 KB of
// reliable events to one client in one tick, and the clients that fall
// behind ack late and are sent it again. The pass of labels on players
// therefore sends at most spreadOf(n) of its n ops in its tick, hides first
// then shows nearest first (the view's order), and leaves the rest to the
// next ticks at the same rate (flushLabels, polled every tick while ops are
// left): all of them are out within LabelSpread (200 ms: 4 ticks at 20 Hz,
// 10 at the default 50), or as the connection's room allows when it has
// less. A pass of a few ops (a calm crowd's) sends them all at once.
//
// world.md's rules hold: a label show left is sent only while its entity
// is still streamed to the viewer (flushLabels checks it, as for ops left
// for lack of room), so an attached label is never shown without its
// entity; a hide left goes later, still after its entity's. A show left
// that its entity's hide overtakes is never sent: a runner passing through
// in less than the spread costs no label show and hide.
//
// The views of players are not spread: measured, their shows waiting
// behind their hides (HidesFirst keeps a client within PlayerLimit) left
// 11 % more of a player's 50 nearest unshown in the crossing, for 6 KB of
// PlayerShow a pass (decision 0330).

// spreadOf returns how many of a pass's n ops it sends a tick:
// max(LabelRate's share of a tick, ⌈n / LabelSpread in ticks⌉). At 20 Hz
// a crossing's ~160 go out 40 a tick, a calm pass's up to 32 at once.
func (r *rates) spreadOf(n int) int {
	return max(r.labelMin, (n+r.labelTicks-1)/r.labelTicks)
}

// labelRoom returns how many of a pass's n ops p's label view sends now,
// within the room of p's connection: the spread's rate for the pass of
// labels on players (spread), all of them for any other pass (a walk among
// fixed labels: a few ops a pass). The rate is kept for the ticks after
// (flushLabels).
func (w *World) labelRoom(p *Player, n int, spread bool) int {
	s := math.MaxInt
	if spread && !w.ents.views.labels.noSpread {
		s = w.rates.spreadOf(n)
	}
	p.ent.labels.spread = s
	return min(takeRoom(p), s)
}
