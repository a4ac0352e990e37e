package stream

// table is the shown set: an open-addressing hash table (linear probing,
// backward-shift deletion) from id to rev, sized to a power of two at most
// 3/4 full. Each slot also holds the epoch of the last Reconcile that wanted
// it; seen = 0 marks an empty slot.
type table struct {
	slots []tslot
	n     int
	epoch uint32
	sink  uint32 // warm's reads, kept so they are not dropped
}

type tslot struct {
	id, rev uint32
	seen    uint32 // 0: empty; else the epoch that last wanted it (or inserted it)
}

func hash(id uint32, mask int) int { return int(id*0x9E3779B1>>7) & mask }

// nextEpoch starts a reconcile: slots not marked with the returned epoch by
// its end are no longer wanted. It never returns 1: what a fresh table
// took before its first reconcile (a Patch, a Flush) is marked 1, and must
// not count as wanted by that reconcile (decision 0297).
func (t *table) nextEpoch() uint32 {
	t.epoch++
	if t.epoch == 1 {
		t.epoch = 2
	}
	if t.epoch == 0 { // wrapped after 2^32 passes: renumber
		for i := range t.slots {
			if t.slots[i].seen != 0 {
				t.slots[i].seen = 1
			}
		}
		t.epoch = 2
	}
	return t.epoch
}

// find returns the slot of id, or -1 when it is not in the table.
func (t *table) find(id uint32) int {
	if t.n > 0 {
		if i := t.probe(id); t.slots[i].seen != 0 {
			return i
		}
	}
	return -1
}

// place returns the slot of id, or, when it is not in the table, the empty
// slot where insertAt would put it (and false): a show's one probe for
// both the look-up and the insert.
func (t *table) place(id uint32) (int, bool) {
	if t.n == 0 {
		return -1, false
	}
	i := t.probe(id)
	return i, t.slots[i].seen != 0
}

// probe returns the slot of id's probe run that holds id, or the empty one
// that ends the run when none does; the table has an empty slot.
func (t *table) probe(id uint32) int {
	mask := len(t.slots) - 1
	i := hash(id, mask)
	for t.slots[i].seen != 0 && t.slots[i].id != id {
		i = (i + 1) & mask
	}
	return i
}

// insertAt adds id, not in the table, at i, the empty slot place gave for
// it with the table unchanged since; i < 0, or a table that must grow,
// looks for the slot itself.
func (t *table) insertAt(i int, id, rev uint32) {
	if full := (t.n+1)*4 > len(t.slots)*3; full || i < 0 {
		if full {
			t.grow()
		}
		i = t.probe(id)
	}
	t.slots[i] = tslot{id: id, rev: rev, seen: max(t.epoch, 1)}
	t.n++
}

// warm reads the home slot of each id (and want) and the slot warmAhead
// after it, with no branch on what it reads, so that the cache misses of a
// step's look-ups overlap instead of following one another (the look-ups
// come next; a view's table is cold by the time its player's next step
// runs). The slot ahead is for the probe run past the home slot: a
// look-up's, a show's up to its empty slot, a hide's backward shift to the
// end of the run. In an object view's table (1000 shown in 2048 slots) half
// of the hides' runs read a line past the home slot's, whose miss would
// wait its turn; with the slot ahead, a tenth (TestWarmCoversProbeRuns,
// decision 0383).
func (t *table) warm(ids []uint32, ws []Want) {
	if len(t.slots) == 0 {
		return
	}
	mask := len(t.slots) - 1
	var x uint32
	for _, id := range ids {
		a, b := warmSlots(id, mask)
		x += t.slots[a].seen + t.slots[b].seen
	}
	for i := range ws {
		a, b := warmSlots(ws[i].ID, mask)
		x += t.slots[a].seen + t.slots[b].seen
	}
	t.sink = x
}

// warmSlots returns the two slots warm loads for id in a table of mask+1
// slots: its home slot and the one warmAhead past it.
func warmSlots(id uint32, mask int) (home, ahead int) {
	h := hash(id, mask)
	return h, (h + warmAhead) & mask
}

// warmAhead is how many slots past the home slot warm loads: 60 bytes, the
// next cache line for a home slot past a line's first bytes (3 and 4 left
// more runs reading a line not loaded, 6 and 8 too: TestWarmCoversProbeRuns).
const warmAhead = 5

// insert adds an id that is not in the table, marked with the current epoch.
func (t *table) insert(id, rev uint32) { t.insertAt(-1, id, rev) }

func (t *table) grow() {
	old := t.slots
	t.slots = make([]tslot, max(16, 2*len(old)))
	for _, s := range old {
		if s.seen != 0 {
			t.slots[t.probe(s.id)] = s
		}
	}
}

// remove empties slot i and shifts back the entries of its probe run.
func (t *table) remove(i int) {
	mask := len(t.slots) - 1
	for j := (i + 1) & mask; ; j = (j + 1) & mask {
		s := t.slots[j]
		if s.seen == 0 {
			break
		}
		// s may move to i if its home is not in the cyclic range (i, j].
		if h := hash(s.id, mask); (j > i && (h <= i || h > j)) || (j < i && h <= i && h > j) {
			t.slots[i] = s
			i = j
		}
	}
	t.slots[i] = tslot{}
	t.n--
}

func (t *table) clear() {
	clear(t.slots)
	t.n = 0
}
