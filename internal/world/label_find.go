package world

import "dlmp/internal/stream"

// A label send's look-ups (decision 0421). Every label show sent finds its
// label by id: the view's ops carry only the id. In issue 7's crossing that
// is ~3,000 shows a tick (~8,000 at the peak), ~70 % of them left by a
// pass's spread and sent on a later tick (label_spread.go), each with the
// world's caches swept by the flush in between: the map's group, then the
// label's lines (its rev, its attachment, its 291 bytes), one cold load
// after the other, for each show in turn. The sends therefore find their
// labels through labelFind, a table of labels by the low bits of their id
// (a slot holds at most one label; the map answers for a label not in its
// slot), and load them all first (warmLabelShows), in a loop whose loads do
// not depend on one another, so their misses overlap (as readOps does for
// the players' shows, decision 0377; a map's look-up in that loop branched
// on what it loaded, which is why 0377's try with it did not gain).

// labelFindBits is the table's size: 4096 slots (32 KB), a slot a label for
// the ids of 4096 consecutive labels (ids are monotonic, shared with blips,
// gang zones and checkpoints: a crowd's name labels made at the joins are
// close together).
const labelFindBits = 12

// labelFind is the labels by the low bits of their id. A slot holds a
// live label or nil: a deleted label is cleared from its slot (forget),
// and ids are never reused, so a slot whose label has the id asked is the
// label.
type labelFind struct {
	slots []*Label // 1 << labelFindBits, made at the first put
	sink  uint32   // warmLabelShows' loads, kept so that they are made
}

// put records l, taking its slot from any label there.
func (f *labelFind) put(l *Label) {
	if f.slots == nil {
		f.slots = make([]*Label, 1<<labelFindBits)
	}
	f.slots[l.id&(1<<labelFindBits-1)] = l
}

// forget clears l's slot if l holds it.
func (f *labelFind) forget(l *Label) {
	if f.slots == nil {
		return
	}
	if i := l.id & (1<<labelFindBits - 1); f.slots[i] == l {
		f.slots[i] = nil
	}
}

// labelByID returns the live label with the id, or nil.
func (w *World) labelByID(id uint32) *Label {
	if f := &w.ents.views.labels.find; f.slots != nil {
		if l := f.slots[id&(1<<labelFindBits-1)]; l != nil && l.id == id {
			return l
		}
	}
	return w.prims.labels[id]
}

// warmLabelShows loads, for every show among ops, the label's slot and the
// lines of the label a send reads: its rev and attachment, and the first
// and last bytes of its show (the copy's first and last lines; the lines
// between follow them in memory). A label not in its slot is left to the
// send's look-up.
func (w *World) warmLabelShows(ops []stream.Op) {
	f := &w.ents.views.labels.find
	if f.slots == nil {
		return
	}
	var sum uint32
	for _, op := range ops {
		if !op.Show {
			continue
		}
		if l := f.slots[op.ID&(1<<labelFindBits-1)]; l != nil {
			sum += l.rev + l.encRev + uint32(l.params.AttachKind) + uint32(l.enc[0]) + uint32(l.enc[len(l.enc)-1])
		}
	}
	f.sink = sum
}
