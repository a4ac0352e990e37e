package stream

import "dlmp/internal/grid"

// Anchor decides when a moving viewer's wanted set must be computed again:
// the point of the last query and a threshold. Between queries the wanted set
// is the one of a point at most the threshold away, so an entity may stay
// shown up to that many meters past its radius, appear up to that many
// meters late, and the nearest-N cut may be off by as much at its far edge.
// The world invalidates the anchors of a scope's viewers when an entity of
// the kind changes there. The zero value is due at once.
type Anchor struct {
	at    grid.Vec
	valid bool
}

// Due reports whether the viewer at p moved more than threshold meters
// (3D) from the last query point, or the anchor was invalidated.
func (a *Anchor) Due(p grid.Vec, threshold float32) bool {
	return !a.valid || grid.Dist2(a.at, p) > threshold*threshold
}

// Mark records a query made at p.
func (a *Anchor) Mark(p grid.Vec) { a.at, a.valid = p, true }

// Invalidate makes the next Due true: the wanted set changed (an entity was
// created, moved, deleted or changed rev near the viewer, or the viewer
// changed scope).
func (a *Anchor) Invalidate() { a.valid = false }
