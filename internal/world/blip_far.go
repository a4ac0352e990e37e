package world

import (
	"slices"

	"dlmp/internal/grid"
)

// A player's farBlips: every unattached blip with a draw distance shown to
// the player (decision 0206), from which the blips shown in their band are
// found (blipExtras) and the view's extras of a step (shownExtras). Each
// entry keeps a copy of what those checks read of the blip, so that a
// player's dozen entries are read from one slice, not a map lookup and a
// Blip each (three quarters of a blip step's extras in the benchmark;
// docs/decisions/0270-blip-rings.md). The copy is made when the blip is
// shown and again on every change of it (blipChanged,
// blipShownChanged), so it is always the blip's as it is now.
type farBlip struct {
	b     *Blip // for its rev, read only for a blip in its band
	id    uint32
	slot  uint32
	at    grid.Vec
	dd    float32 // draw distance
	scope grid.Scope
	state farState
}

// farState is what became of a farBlips entry's blip since it was shown.
type farState uint8

const (
	farLive     farState = iota // unattached, in the world
	farAttached                 // attached since (a shown attached blip: the attached walks)
	farGone                     // deleted
)

// farOf returns the farBlips entry of b as it is now.
func (w *World) farOf(b *Blip) farBlip {
	f := farBlip{b: b, id: b.id, slot: b.slot, at: b.at, dd: b.params.DrawDistance, scope: b.params.Scope}
	switch {
	case w.prims.blips[b.id] != b:
		f.state = farGone
	case b.attached():
		f.state = farAttached
	}
	return f
}

// addFar adds f to fs, or replaces the entry of its blip, and returns fs.
func addFar(fs []farBlip, f farBlip) []farBlip {
	if i := slices.IndexFunc(fs, func(e farBlip) bool { return e.id == f.id }); i >= 0 {
		fs[i] = f
		return fs
	}
	return append(fs, f)
}

// refreshFar replaces the entry of f's blip in fs, if any.
func refreshFar(fs []farBlip, f farBlip) {
	if i := slices.IndexFunc(fs, func(e farBlip) bool { return e.id == f.id }); i >= 0 {
		fs[i] = f
	}
}

// removeFar removes the entry of id from fs and returns fs.
func removeFar(fs []farBlip, id uint32) []farBlip {
	if i := slices.IndexFunc(fs, func(e farBlip) bool { return e.id == id }); i >= 0 {
		fs[i] = fs[len(fs)-1]
		return fs[:len(fs)-1]
	}
	return fs
}

// A player's attShown: the attached blips shown to the player (added on a
// show, removed on a hide; a change that attaches a shown blip adds it, one
// that deletes it or lets it go removes it: blipChanged). A step's extras
// shown (shownExtras) are read from it, not by asking the view about every
// attached blip of the world (a thousand with player markers).

// addAttShown adds b to bs, unless there, and returns bs.
func addAttShown(bs []*Blip, b *Blip) []*Blip {
	if slices.Contains(bs, b) {
		return bs
	}
	return append(bs, b)
}

// removeAttShown removes the blip of id from bs and returns bs.
func removeAttShown(bs []*Blip, id uint32) []*Blip {
	if i := slices.IndexFunc(bs, func(b *Blip) bool { return b.id == id }); i >= 0 {
		bs[i] = bs[len(bs)-1]
		bs[len(bs)-1] = nil
		return bs[:len(bs)-1]
	}
	return bs
}
