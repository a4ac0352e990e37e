package stream

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// TestSlotIsEightBytes: a table's slot is its key and rev, eight to a
// cache line and none across two (decision 0403).
func TestSlotIsEightBytes(t *testing.T) {
	if got := unsafe.Sizeof(tslot{}); got != 8 {
		t.Errorf("got a %d-byte slot, want 8", got)
	}
}

// refTable is the table as it was before decision 0403 (an occupied flag
// beside each id): linear probing, the same hash and growth, backward-shift
// deletion. Its slots give the table order of hides.
type refTable struct {
	ids  []uint32
	used []bool
	n    int
}

func (r *refTable) probe(id uint32) int {
	mask := len(r.ids) - 1
	i := hash(id, mask)
	for r.used[i] && r.ids[i] != id {
		i = (i + 1) & mask
	}
	return i
}

func (r *refTable) insert(id uint32) {
	if (r.n+1)*4 > len(r.ids)*3 {
		oldIDs, oldUsed := r.ids, r.used
		r.ids, r.used = make([]uint32, max(16, 2*len(oldIDs))), make([]bool, max(16, 2*len(oldIDs)))
		for i, u := range oldUsed {
			if u {
				j := r.probe(oldIDs[i])
				r.ids[j], r.used[j] = oldIDs[i], true
			}
		}
	}
	i := r.probe(id)
	r.ids[i], r.used[i] = id, true
	r.n++
}

func (r *refTable) remove(id uint32) {
	mask := len(r.ids) - 1
	i := r.probe(id)
	for j := (i + 1) & mask; r.used[j]; j = (j + 1) & mask {
		if h := hash(r.ids[j], mask); (j > i && (h <= i || h > j)) || (j < i && h <= i && h > j) {
			r.ids[i], r.used[i] = r.ids[j], true
			i = j
		}
	}
	r.used[i] = false
	r.n--
}

// TestTableKeepsSlotsAndRekeys: after every insert and remove of a random
// walk over ids that include the ones a fresh table cannot store as they
// are (MaxUint32, then the ids rekey picks below it) and 0, the table holds
// every id at its rev in the slot the reference table (with a flag a slot)
// holds it in, and nothing else: the table order, and so the order of
// hides, is unchanged by the 8-byte slots. It fails if rekey leaves a key
// stale, if the id that cannot be stored is found, or if a slot moves.
func TestTableKeepsSlotsAndRekeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	pool := []uint32{0, 1, math.MaxUint32, math.MaxUint32 - 1, math.MaxUint32 - 2, math.MaxUint32 - 3}
	for range 60 {
		pool = append(pool, rng.Uint32())
	}
	var tb table
	var ref refTable
	m := map[uint32]uint32{}
	rekeys, flip := 0, tb.flip
	for op := range 20000 {
		id := pool[rng.IntN(len(pool))]
		if op%3 == 0 {
			id = math.MaxUint32 - uint32(rng.IntN(12))
		}
		if j := tb.find(id); j >= 0 {
			if rev, ok := m[id]; !ok || rev != tb.slots[j].rev {
				t.Fatalf("op %d: find(%d): table rev %d, map %d %v", op, id, tb.slots[j].rev, rev, ok)
			}
			tb.remove(j)
			ref.remove(id)
			delete(m, id)
		} else {
			if _, ok := m[id]; ok {
				t.Fatalf("op %d: find(%d): missing from the table", op, id)
			}
			tb.insert(id, uint32(op))
			ref.insert(id)
			m[id] = uint32(op)
		}
		if tb.flip != flip {
			rekeys, flip = rekeys+1, tb.flip
		}
		if tb.n != len(m) || len(tb.slots) != len(ref.ids) {
			t.Fatalf("op %d: got %d entries in %d slots, want %d in %d", op, tb.n, len(tb.slots), len(m), len(ref.ids))
		}
		for i := range tb.slots {
			full := tb.slots[i].key != 0
			if full != ref.used[i] || full && tb.id(i) != ref.ids[i] {
				t.Fatalf("op %d: slot %d holds %v (id %d), want %v (id %d)", op, i, full, tb.id(i), ref.used[i], ref.ids[i])
			}
			if full && tb.slots[i].rev != m[tb.id(i)] {
				t.Fatalf("op %d: slot %d: rev %d, want %d", op, i, tb.slots[i].rev, m[tb.id(i)])
			}
		}
	}
	t.Logf("%d rekeys", rekeys)
	if rekeys < 3 {
		t.Errorf("got %d rekeys, want the walk to make several", rekeys)
	}
}

// TestViewShowsTheEdgeIDs: a view shows, finds, patches and hides the ids
// at the edges of uint32 (MaxUint32, whose key is 0 in a fresh table, and
// the ids rekey moves that role to), as any other.
func TestViewShowsTheEdgeIDs(t *testing.T) {
	const top = math.MaxUint32
	v := New(Unlimited)
	all := []Want{w(top, 1, 1), w(top-1, 1, 2), w(0, 1, 3), w(top-2, 1, 4)}
	ops := v.Reconcile(slices.Clone(all), Unlimited, HidesFirst, nil)
	checkOps(t, "first reconcile", ops, []Op{show(top, 1), show(top-1, 1), show(0, 1), show(top-2, 1)})
	for _, x := range all {
		if rev, ok := v.Shown(x.ID); !ok || rev != 1 {
			t.Fatalf("Shown(%d) = %d, %v; want 1, true", x.ID, rev, ok)
		}
	}
	ops, ok := v.Patch(v.Len(), v.sum, []uint32{top, 0}, []Want{w(top-3, 1, 5)}, Unlimited, HidesFirst, nil)
	if !ok {
		t.Fatal("Patch refused the view's own set")
	}
	checkOps(t, "patch", canonical(ops), canonical([]Op{hide(top), hide(0), show(top-3, 1)}))
	ops = v.Reconcile([]Want{w(top, 2, 1), w(top-3, 1, 5)}, Unlimited, HidesFirst, nil)
	checkOps(t, "second reconcile", canonical(ops), canonical([]Op{hide(top - 1), hide(top - 2), show(top, 2)}))
	if v.Len() != 2 || v.sum != sumOf(w(top, 2, 1), w(top-3, 1, 5)) {
		t.Errorf("got %d shown, sum %x; want 2, %x", v.Len(), v.sum, sumOf(w(top, 2, 1), w(top-3, 1, 5)))
	}
}
