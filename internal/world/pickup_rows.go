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

// rowPageLen is the rows of a page of pickupRows: 32 KB.
const rowPageLen = 1024

// rowPage is the rows of the pickups with ids n*rowPageLen ..
// n*rowPageLen+rowPageLen-1, and how many of them are live.
type rowPage struct {
	rows [rowPageLen]pickupRow
	live int
}

// pickupRows holds the rows in pages by id: pages[i] is page base+i, nil
// when none of its pickups is live. A page whose pickups were all deleted
// is freed, and the leading free pages are dropped, so the memory follows
// the live pickups: a gamemode that keeps some pickups for good and
// creates and deletes others without end (money drops) keeps a few pages
// and a pointer per 1024 ids given (decision 0395, amended at review).
type pickupRows struct {
	base  uint32 // the page number of pages[0]
	pages []*rowPage
}

// set writes pk's row (on creation and on every change of what a show
// holds).
func (t *pickupRows) set(pk *Pickup) {
	n := pk.id / rowPageLen
	if len(t.pages) == 0 {
		t.base = n
	}
	for n < t.base { // not when ids are given in order: a page before the first
		t.pages = append([]*rowPage{nil}, t.pages...)
		t.base--
	}
	i := int(n - t.base)
	for len(t.pages) <= i {
		t.pages = append(t.pages, nil)
	}
	pg := t.pages[i]
	if pg == nil {
		pg = new(rowPage)
		t.pages[i] = pg
	}
	r := &pg.rows[pk.id%rowPageLen]
	if !r.live {
		pg.live++
	}
	*r = pickupRow{pos: pk.pos, model: pk.model, scale: pk.scale, rev: pk.rev, highlight: pk.highlight, live: true}
}

// drop clears the row of a deleted pickup, freeing its page when it was the
// page's last.
func (t *pickupRows) drop(id uint32) {
	r := t.row(id)
	if r == nil {
		return
	}
	*r = pickupRow{}
	i := int(id/rowPageLen - t.base)
	pg := t.pages[i]
	if pg.live--; pg.live > 0 {
		return
	}
	t.pages[i] = nil
	for len(t.pages) > 0 && t.pages[0] == nil {
		t.pages[0] = nil
		t.pages = t.pages[1:]
		t.base++
	}
	if len(t.pages) == 0 {
		t.base, t.pages = 0, nil
	}
}

// row returns the row of the live pickup id, or nil.
func (t *pickupRows) row(id uint32) *pickupRow {
	n := id / rowPageLen
	if n < t.base || int(n-t.base) >= len(t.pages) {
		return nil
	}
	pg := t.pages[n-t.base]
	if pg == nil || !pg.rows[id%rowPageLen].live {
		return nil
	}
	return &pg.rows[id%rowPageLen]
}

// fill writes the show of pickup id, from its row, into s.
func (r *pickupRow) fill(id uint32, s *wire.PickupSync) {
	*s = wire.PickupSync{PickupID: id, Active: 1, Model: r.model, X: r.pos.X, Y: r.pos.Y, Z: r.pos.Z,
		Scale: r.scale, Highlight: r.highlight, Rev: r.rev}
}
