package world

// A label send's look-up (decision 0421). Every label show sent finds its
// label by id: the view's ops carry only the id. In issue 7's crossing that
// is ~3,000 shows a tick (~8,000 at the peak), ~70 % of them left by a
// pass's spread and sent on a later tick (label_spread.go), with the
// world's caches swept by the flush in between. The map's look-up (its
// hash, its control word, its slot) then comes cold before the label's own
// lines, for each show in turn. The sends therefore find their labels
// through labelFind, a table of labels by the low bits of their id: one
// load at an address known from the id (a slot holds at most one label;
// the map answers for a label not in its slot). BenchmarkLabelShows/cold:
// 49.9 → 35.8 ns a show (medians of 6 alternated rounds). Loading all of
// a send's labels first, in a loop of their own (as readOps does for the
// players' shows, decision 0377), was measured on top of it and gained
// nothing (decision 0421).

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
	if f := &w.prims.labelFind; f.slots != nil {
		if l := f.slots[id&(1<<labelFindBits-1)]; l != nil && l.id == id {
			return l
		}
	}
	return w.prims.labels[id]
}
