package stream

// table is the shown set: an open-addressing hash table (linear probing,
// backward-shift deletion) from id to rev, sized to a power of two at most
// 3/4 full. A slot is 8 bytes, its key and the rev (decision 0403): eight
// slots a cache line, none across two, so that a look-up's probe run and
// a removal's backward shift read fewer lines than with the 12-byte slots
// that also held a reconcile's mark (Reconcile marks the slots it keeps in
// a bitmap instead). A slot's position depends on the id and the table's
// size alone (hash), so the table order of hides is what it was.
//
// A slot's key is id ^ ^flip, 0 for an empty slot: the one id whose key
// would be 0, ^flip (MaxUint32 in a fresh table), cannot be stored as is,
// and inserting it first rekeys the table to another such id (rekey).
type table struct {
	slots []tslot
	n     int
	flip  uint32
	sink  uint32 // warm's reads, kept so they are not dropped
}

type tslot struct {
	key uint32 // id ^ ^flip; 0: empty
	rev uint32
}

func hash(id uint32, mask int) int { return int(id*0x9E3779B1>>7) & mask }

// keyOf returns the key of id's slot (0 for the id that cannot be stored
// as is: it is never in the table).
func (t *table) keyOf(id uint32) uint32 { return id ^ ^t.flip }

// id returns the id held by slot i, which is not empty.
func (t *table) id(i int) uint32 { return t.slots[i].key ^ ^t.flip }

// rekey makes id, whose key is 0, storable: another id not in the table
// (id-1, id-2, ... : the table is at most 3/4 full) becomes the one that
// cannot be stored, and every key is recomputed. Slots do not move.
func (t *table) rekey(id uint32) {
	u := id - 1
	for t.find(u) >= 0 {
		u--
	}
	d := id ^ u // key' = id' ^ u = key ^ id ^ u
	for i := range t.slots {
		if t.slots[i].key != 0 {
			t.slots[i].key ^= d
		}
	}
	t.flip = ^u
}

// find returns the slot of id, or -1 when it is not in the table.
func (t *table) find(id uint32) int {
	if t.n > 0 {
		if i := t.probe(id); t.slots[i].key != 0 {
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
	return i, t.slots[i].key != 0
}

// probe returns the slot of id's probe run that holds id, or the empty one
// that ends the run when none does; the table has an empty slot.
func (t *table) probe(id uint32) int {
	mask := len(t.slots) - 1
	i := hash(id, mask)
	for k := t.keyOf(id); t.slots[i].key != 0 && t.slots[i].key != k; {
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
	if t.keyOf(id) == 0 {
		t.rekey(id)
	}
	t.slots[i] = tslot{key: t.keyOf(id), rev: rev}
	t.n++
}

// warm reads the home slot of each id (and want) and the slot warmAhead
// after it, with no branch on what it reads, so that the cache misses of a
// step's look-ups overlap instead of following one another (the look-ups
// come next; a view's table is cold by the time its player's next step
// runs). The slot ahead is for the probe run past the home slot: a
// look-up's, a show's up to its empty slot, a hide's backward shift to the
// end of the run. In an object view's table (1000 shown in 2048 slots of
// 8 bytes) 38 % of the hides' runs read a line past the home slot's, whose
// miss would wait its turn; with the slot ahead, 5 % (TestWarmCoversProbeRuns,
// decisions 0383, 0403).
func (t *table) warm(ids []uint32, ws []Want) {
	if len(t.slots) == 0 {
		return
	}
	mask := len(t.slots) - 1
	var x uint32
	for _, id := range ids {
		a, b := warmSlots(id, mask)
		x += t.slots[a].key + t.slots[b].key
	}
	for i := range ws {
		a, b := warmSlots(ws[i].ID, mask)
		x += t.slots[a].key + t.slots[b].key
	}
	t.sink = x
}

// warmSlots returns the two slots warm loads for id in a table of mask+1
// slots: its home slot and the one warmAhead past it.
func warmSlots(id uint32, mask int) (home, ahead int) {
	h := hash(id, mask)
	return h, (h + warmAhead) & mask
}

// warmAhead is how many slots past the home slot warm loads: 56 bytes, the
// next cache line unless the home slot starts its line (fewer slots ahead
// left more runs reading a line not loaded: 2 slots 20 % of the hides', 5
// slots 8 %, 7 slots 5 %: TestWarmCoversProbeRuns).
const warmAhead = 7

// insert adds an id that is not in the table.
func (t *table) insert(id, rev uint32) { t.insertAt(-1, id, rev) }

func (t *table) grow() {
	old := t.slots
	t.slots = make([]tslot, max(16, 2*len(old)))
	for _, s := range old {
		if s.key != 0 {
			t.slots[t.probe(s.key^^t.flip)] = s
		}
	}
}

// remove empties slot i and shifts back the entries of its probe run.
func (t *table) remove(i int) {
	mask := len(t.slots) - 1
	for j := (i + 1) & mask; ; j = (j + 1) & mask {
		s := t.slots[j]
		if s.key == 0 {
			break
		}
		// s moves to i if its home is not in the cyclic range (i, j]: if
		// it is at least as far back from j as i is. The hole takes s
		// either way (with no branch on the test, which mispredicts): if
		// s stays, the hole is still i, filled or emptied later.
		h := hash(s.key^^t.flip, mask)
		t.slots[i] = s
		if (j-h)&mask >= (j-i)&mask {
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
