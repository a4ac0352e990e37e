package world

import (
	"iter"

	"dlmp/internal/stream"
)

// Queries over the per-player primitives, for the gamemode, the Lua
// bindings and the admin map. The iterators yield in no particular order;
// the gamemode may not create or delete a primitive of the kind while one
// runs.

// Labels yields every label.
func (w *World) Labels() iter.Seq[*Label] { return values(w.prims.labels) }

// Blips yields every blip.
func (w *World) Blips() iter.Seq[*Blip] { return values(w.prims.blips) }

// GangZones yields every gang zone.
func (w *World) GangZones() iter.Seq[*GangZone] { return values(w.prims.zones) }

// Checkpoints yields every checkpoint of every player.
func (w *World) Checkpoints() iter.Seq[*Checkpoint] { return values(w.prims.cps) }

// Colshapes yields every colshape.
func (w *World) Colshapes() iter.Seq[*Colshape] { return values(w.prims.cols) }

// Checkpoints returns the ids of p's checkpoints, oldest first.
func (p *Player) Checkpoints() []uint32 { return append([]uint32(nil), p.prims.own...) }

// Inside reports whether p is inside the colshape (colshape_enter raised,
// colshape_leave not yet).
func (p *Player) Inside(colshape uint32) bool {
	_, ok := p.prims.colIn[colshape]
	return ok
}

// LabelShown reports whether the label is currently shown to the player.
func (p *Player) LabelShown(id uint32) bool { return shown(p.prims.labels, id) }

// BlipShown reports whether the blip is currently shown to the player.
func (p *Player) BlipShown(id uint32) bool { return shown(p.prims.blips, id) }

// GangZoneShown reports whether the gang zone is currently shown to the
// player.
func (p *Player) GangZoneShown(id uint32) bool { return shown(p.prims.zones, id) }

// CheckpointShown reports whether the checkpoint is currently shown to the
// player.
func (p *Player) CheckpointShown(id uint32) bool { return shown(p.prims.cps, id) }

// ColshapeShown reports whether the colshape's outline is currently shown
// to the player.
func (p *Player) ColshapeShown(id uint32) bool { return shown(p.prims.cols, id) }

func shown(v *stream.View, id uint32) bool {
	if v == nil {
		return false
	}
	_, ok := v.Shown(id)
	return ok
}

func values[T any](m map[uint32]T) iter.Seq[T] {
	return func(yield func(T) bool) {
		for _, v := range m {
			if !yield(v) {
				return
			}
		}
	}
}
