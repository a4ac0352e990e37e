package stream

// table is the shown set: an open-addressing hash table (linear probing,
// backward-shift deletion) from id to rev, sized to a power of two at most
// 3/4 full. Each slot also holds the epoch of the last Reconcile that wanted
// it; seen = 0 marks an empty slot.
type table struct {
	slots []tslot
	n     int
	epoch uint32
}

type tslot struct {
	id, rev uint32
	seen    uint32 // 0: empty; else the epoch that last wanted it (or inserted it)
}

func hash(id uint32, mask int) int { return int(id*0x9E3779B1>>7) & mask }

// nextEpoch starts a reconcile: slots not marked with the returned epoch by
// its end are no longer wanted.
func (t *table) nextEpoch() uint32 {
	t.epoch++
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

func (t *table) find(id uint32) int {
	if t.n == 0 {
		return -1
	}
	mask := len(t.slots) - 1
	for i := hash(id, mask); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.seen == 0 {
			return -1
		}
		if s.id == id {
			return i
		}
	}
}

// insert adds an id that is not in the table, marked with the current epoch.
func (t *table) insert(id, rev uint32) {
	if (t.n+1)*4 > len(t.slots)*3 {
		t.grow()
	}
	mask := len(t.slots) - 1
	i := hash(id, mask)
	for t.slots[i].seen != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = tslot{id: id, rev: rev, seen: max(t.epoch, 1)}
	t.n++
}

func (t *table) grow() {
	old := t.slots
	t.slots = make([]tslot, max(16, 2*len(old)))
	mask := len(t.slots) - 1
	for _, s := range old {
		if s.seen == 0 {
			continue
		}
		i := hash(s.id, mask)
		for t.slots[i].seen != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
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
