package world

import (
	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// pickupRow is what a pickup's show reads (Pickup.fill), kept dense by
// pickup id beside the map of pickups, one row to a half cache line: a
// pickup step's shows (sendPickupOps) read one row each, where the map's
// lookup and the Pickup it points to were two or three cold lines
// (docs/decisions/0395-pickup-rows.md).
type pickupRow struct {
	pos       grid.Vec
	model     uint32
	scale     float32
	rev       uint32
	highlight uint8
	live      bool // a pickup with this id exists (active or waiting for its respawn)
	_         [6]byte
}

// pickupRows holds the rows of the pickups with ids base .. base+len(rows)-1.
// Ids are given in order and never again, so a new pickup's row is always
// appended; a deleted one's is cleared, and once the deleted rows before
// the first live one are at least half the table (and 1024 or more) the
// table drops them: its size follows the span of live ids, not every id
// ever given.
type pickupRows struct {
	base  uint32
	rows  []pickupRow
	live  int // live rows
	first int // the index of the first live row
}

// set writes pk's row (on creation and on every change of what a show
// holds).
func (t *pickupRows) set(pk *Pickup) {
	if len(t.rows) == 0 {
		t.base = pk.id
	}
	i := int(pk.id - t.base)
	for len(t.rows) <= i {
		t.rows = append(t.rows, pickupRow{})
	}
	if !t.rows[i].live {
		t.live++
	}
	t.rows[i] = pickupRow{pos: pk.pos, model: pk.model, scale: pk.scale, rev: pk.rev, highlight: pk.highlight, live: true}
}

// drop clears the row of a deleted pickup.
func (t *pickupRows) drop(id uint32) {
	i := int(id - t.base)
	if id < t.base || i >= len(t.rows) || !t.rows[i].live {
		return
	}
	t.rows[i] = pickupRow{}
	t.live--
	if t.live == 0 {
		t.base, t.rows, t.first = 0, t.rows[:0], 0
		return
	}
	for !t.rows[t.first].live {
		t.first++
	}
	if t.first >= 1024 && 2*t.first >= len(t.rows) {
		t.rows = append([]pickupRow(nil), t.rows[t.first:]...)
		t.base += uint32(t.first)
		t.first = 0
	}
}

// row returns the row of the live pickup id, or nil.
func (t *pickupRows) row(id uint32) *pickupRow {
	i := int(id - t.base)
	if id < t.base || i >= len(t.rows) || !t.rows[i].live {
		return nil
	}
	return &t.rows[i]
}

// fill writes the show of pickup id, from its row, into s.
func (r *pickupRow) fill(id uint32, s *wire.PickupSync) {
	*s = wire.PickupSync{PickupID: id, Active: 1, Model: r.model, X: r.pos.X, Y: r.pos.Y, Z: r.pos.Z,
		Scale: r.scale, Highlight: r.highlight, Rev: r.rev}
}
