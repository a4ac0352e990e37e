package stream

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

func w(id uint32, rev uint32, dist float32) Want { return Want{ID: id, Rev: rev, Dist2: dist * dist} }

// child is an object attached below root (at the root's distance).
func child(id, root uint32, depth uint16, dist float32) Want {
	return Want{ID: id, Rev: 1, Dist2: dist * dist, Root: root, Depth: depth}
}

func root(id uint32, dist float32, chain uint16) Want {
	return Want{ID: id, Rev: 1, Dist2: dist * dist, Chain: chain}
}

func show(id, rev uint32) Op { return Op{ID: id, Rev: rev, Show: true} }
func hide(id uint32) Op      { return Op{ID: id} }

// shownSet lists the view's shown entities as "id@rev", sorted.
func shownSet(v *View, ids ...uint32) []string {
	var s []string
	for _, id := range ids {
		if rev, ok := v.Shown(id); ok {
			s = append(s, fmt.Sprintf("%d@%d", id, rev))
		}
	}
	return s
}

// canonical sorts the hides of ops (their order is unspecified) and keeps
// the order of the shows.
func canonical(ops []Op) []Op {
	ops = slices.Clone(ops)
	for i := 0; i < len(ops); {
		j := i
		for j < len(ops) && !ops[j].Show {
			j++
		}
		slices.SortFunc(ops[i:j], func(a, b Op) int { return int(a.ID) - int(b.ID) })
		for j < len(ops) && ops[j].Show {
			j++
		}
		i = j
	}
	return ops
}

func TestReconcile(t *testing.T) {
	type pass struct {
		wanted  []Want
		budget  int
		order   Order
		want    []Op
		pending int
	}
	cases := []struct {
		name   string
		limit  int
		passes []pass
		reset  int // Reset before this pass index (0 = never)
	}{
		{"shows nearest first", Unlimited, []pass{
			{[]Want{w(1, 1, 3), w(2, 1, 1), w(3, 1, 2)}, Unlimited, HidesFirst, []Op{show(2, 1), show(3, 1), show(1, 1)}, 0},
			{[]Want{w(1, 1, 3), w(2, 1, 1), w(3, 1, 2)}, Unlimited, HidesFirst, nil, 0},
		}, 0},
		{"ties by id", Unlimited, []pass{
			{[]Want{w(9, 1, 2), w(4, 1, 2), w(7, 1, 1)}, Unlimited, HidesFirst, []Op{show(7, 1), show(4, 1), show(9, 1)}, 0},
		}, 0},
		{"rev bump resends only the changed", Unlimited, []pass{
			{[]Want{w(1, 1, 1), w(2, 1, 2)}, Unlimited, HidesFirst, []Op{show(1, 1), show(2, 1)}, 0},
			{[]Want{w(1, 2, 1), w(2, 1, 2)}, Unlimited, HidesFirst, []Op{show(1, 2)}, 0},
		}, 0},
		{"no longer wanted or deleted", Unlimited, []pass{
			{[]Want{w(1, 1, 1), w(2, 1, 2), w(3, 1, 3)}, Unlimited, HidesFirst, []Op{show(1, 1), show(2, 1), show(3, 1)}, 0},
			{[]Want{w(2, 1, 2)}, Unlimited, HidesFirst, []Op{hide(1), hide(3)}, 0},
			{nil, Unlimited, HidesFirst, []Op{hide(2)}, 0},
		}, 0},
		{"hides before shows", Unlimited, []pass{
			{[]Want{w(1, 1, 1)}, Unlimited, HidesFirst, []Op{show(1, 1)}, 0},
			{[]Want{w(2, 1, 1)}, Unlimited, HidesFirst, []Op{hide(1), show(2, 1)}, 0},
		}, 0},
		{"shows before hides when told", Unlimited, []pass{
			{[]Want{w(1, 1, 1)}, Unlimited, HidesFirst, []Op{show(1, 1)}, 0},
			{[]Want{w(2, 1, 1)}, Unlimited, ShowsFirst, []Op{show(2, 1), hide(1)}, 0},
		}, 0},
		{"budget carries shows over, nearest first", Unlimited, []pass{
			{[]Want{w(1, 1, 5), w(2, 1, 4), w(3, 1, 3), w(4, 1, 2), w(5, 1, 1)}, 2, HidesFirst, []Op{show(5, 1), show(4, 1)}, 3},
			{[]Want{w(1, 1, 5), w(2, 1, 4), w(3, 1, 3), w(4, 1, 2), w(5, 1, 1)}, 2, HidesFirst, []Op{show(3, 1), show(2, 1)}, 1},
			{[]Want{w(1, 1, 5), w(2, 1, 4), w(3, 1, 3), w(4, 1, 2), w(5, 1, 1)}, 2, HidesFirst, []Op{show(1, 1)}, 0},
		}, 0},
		{"budget spent on hides first", Unlimited, []pass{
			{[]Want{w(1, 1, 1), w(2, 1, 2), w(3, 1, 3)}, Unlimited, HidesFirst, []Op{show(1, 1), show(2, 1), show(3, 1)}, 0},
			{[]Want{w(4, 1, 1), w(5, 1, 2)}, 2, HidesFirst, nil, 3}, // two of the three hides; checked by count below
		}, 0},
		{"shows first take the budget", Unlimited, []pass{
			{[]Want{w(1, 1, 1)}, Unlimited, HidesFirst, []Op{show(1, 1)}, 0},
			{[]Want{w(4, 1, 2), w(5, 1, 1)}, 2, ShowsFirst, []Op{show(5, 1), show(4, 1)}, 1},
			{[]Want{w(4, 1, 2), w(5, 1, 1)}, 2, ShowsFirst, []Op{hide(1)}, 0},
		}, 0},
		{"zero budget sends nothing", Unlimited, []pass{
			{[]Want{w(1, 1, 1)}, 0, HidesFirst, nil, 1},
		}, 0},
		{"limit evicts the farthest", 2, []pass{
			{[]Want{w(1, 1, 5), w(2, 1, 6)}, Unlimited, HidesFirst, []Op{show(1, 1), show(2, 1)}, 0},
			{[]Want{w(1, 1, 5), w(2, 1, 6), w(3, 1, 1)}, Unlimited, HidesFirst, []Op{hide(2), show(3, 1)}, 0},
		}, 0},
		{"reset shows everything again", Unlimited, []pass{
			{[]Want{w(1, 1, 1), w(2, 3, 2)}, Unlimited, HidesFirst, []Op{show(1, 1), show(2, 3)}, 0},
			{[]Want{w(1, 1, 1), w(2, 3, 2)}, Unlimited, HidesFirst, []Op{show(1, 1), show(2, 3)}, 0},
		}, 1},
		{"chain counts whole: fits", 4, []pass{
			{[]Want{child(12, 10, 2, 1), root(20, 2, 1), child(21, 20, 1, 2), child(11, 10, 1, 1), root(10, 1, 2), w(30, 1, 0.5)},
				Unlimited, HidesFirst, []Op{show(30, 1), show(10, 1), show(11, 1), show(12, 1)}, 0},
		}, 0},
		{"chain that does not fit ends the list", 5, []pass{
			{[]Want{root(20, 2, 1), child(21, 20, 1, 2), w(40, 1, 3), child(11, 10, 1, 1), root(10, 1, 2), child(12, 10, 2, 1), w(30, 1, 0.5)},
				Unlimited, HidesFirst, []Op{show(30, 1), show(10, 1), show(11, 1), show(12, 1)}, 0},
		}, 0},
		{"chain evicted whole by a nearer one", 3, []pass{
			{[]Want{root(10, 2, 2), child(11, 10, 1, 2), child(12, 10, 1, 2)}, Unlimited, HidesFirst,
				[]Op{show(10, 1), show(11, 1), show(12, 1)}, 0},
			{[]Want{root(10, 2, 2), child(11, 10, 1, 2), child(12, 10, 1, 2), w(5, 1, 1)}, Unlimited, HidesFirst,
				[]Op{hide(10), hide(11), hide(12), show(5, 1)}, 0},
		}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := New(c.limit)
			for i, p := range c.passes {
				if c.reset != 0 && i == c.reset {
					v.Reset()
				}
				got := v.Reconcile(slices.Clone(p.wanted), p.budget, p.order, nil)
				if c.name == "budget spent on hides first" && i == 1 {
					if len(got) != 2 || got[0].Show || got[1].Show {
						t.Fatalf("pass %d: got %v, want two hides", i, got)
					}
				} else if got := canonical(got); !slices.Equal(got, p.want) {
					t.Fatalf("pass %d: got ops %v, want %v", i, got, p.want)
				}
				if v.Pending() != p.pending {
					t.Fatalf("pass %d: got pending %d, want %d", i, v.Pending(), p.pending)
				}
			}
		})
	}
}

func TestDropForgetsWithoutHide(t *testing.T) {
	v := New(Unlimited)
	v.Reconcile([]Want{w(1, 1, 1), w(2, 1, 1)}, Unlimited, HidesFirst, nil)
	v.Drop(1)
	v.Drop(99) // not shown: nothing
	if got := v.Reconcile(nil, Unlimited, HidesFirst, nil); !slices.Equal(got, []Op{hide(2)}) {
		t.Errorf("got %v, want only the hide of 2", got)
	}
	if got := shownSet(v, 1, 2); len(got) != 0 {
		t.Errorf("got shown %v, want none", got)
	}
}

// TestReconcileConverges drives random wanted sets with random budgets and
// checks that the view never holds more than the limit (hides first), that
// its shown set matches the ops sent, and that with the same wanted set it
// converges to exactly the trimmed wanted set.
func TestReconcileConverges(t *testing.T) {
	for seed := range uint64(60) {
		rng := rand.New(rand.NewPCG(seed, 9))
		limit := []int{1, 3, 16, 100, Unlimited}[seed%5]
		v := New(limit)
		client := map[uint32]uint32{} // what the client holds, from the ops
		for round := range 30 {
			n := rng.IntN(150)
			ids := rng.Perm(300)[:n]
			wanted := make([]Want, n)
			for i, id := range ids {
				wanted[i] = Want{ID: uint32(id), Rev: uint32(rng.IntN(3)), Dist2: float32(rng.IntN(50))}
			}
			expect := v.trim(slices.Clone(wanted))
			for pass := 0; ; pass++ {
				budget := 1 + rng.IntN(40)
				var ops []Op
				if pass > 0 && rng.IntN(2) == 0 {
					ops = v.Flush(budget, HidesFirst, nil) // the rest of the last Reconcile
				} else {
					ops = v.Reconcile(slices.Clone(wanted), budget, HidesFirst, nil)
				}
				if len(ops) > budget {
					t.Fatalf("seed %d: got %d ops, budget %d", seed, len(ops), budget)
				}
				for _, op := range ops {
					if op.Show {
						client[op.ID] = op.Rev
					} else {
						if _, ok := client[op.ID]; !ok {
							t.Fatalf("seed %d: hide of %d, not shown", seed, op.ID)
						}
						delete(client, op.ID)
					}
				}
				if len(client) > limit || v.Len() != len(client) {
					t.Fatalf("seed %d: client holds %d, view %d, limit %d", seed, len(client), v.Len(), limit)
				}
				var sum uint64
				for id, rev := range client {
					sum += mix(id, rev)
				}
				if sum != v.sum {
					t.Fatalf("seed %d: fingerprint %x, want %x from the client's set", seed, v.sum, sum)
				}
				if v.Pending() == 0 {
					break
				}
				if pass > 1000 {
					t.Fatalf("seed %d round %d: no convergence", seed, round)
				}
			}
			if len(client) != len(expect) {
				t.Fatalf("seed %d: client holds %d, want %d", seed, len(client), len(expect))
			}
			for _, e := range expect {
				if rev, ok := client[e.ID]; !ok || rev != e.Rev {
					t.Fatalf("seed %d: id %d: client has rev %d (%v), want %d", seed, e.ID, rev, ok, e.Rev)
				}
			}
		}
	}
}

func TestTableMatchesMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var tb table
	m := map[uint32]uint32{}
	for i := range 200000 {
		id := uint32(rng.IntN(3000))
		if j := tb.find(id); j >= 0 {
			if rev, ok := m[id]; !ok || rev != tb.slots[j].rev {
				t.Fatalf("op %d: find(%d): table rev %d, map %d %v", i, id, tb.slots[j].rev, rev, ok)
			}
			if rng.IntN(2) == 0 {
				tb.remove(j)
				delete(m, id)
			}
		} else {
			if _, ok := m[id]; ok {
				t.Fatalf("op %d: find(%d): missing from the table", i, id)
			}
			tb.insert(id, uint32(i))
			m[id] = uint32(i)
		}
		if tb.n != len(m) {
			t.Fatalf("op %d: got %d entries, want %d", i, tb.n, len(m))
		}
	}
}

func TestReconcileSteadyStateDoesNotAllocate(t *testing.T) {
	v := New(Objects.Limit())
	wanted := make([]Want, 1000)
	for i := range wanted {
		wanted[i] = Want{ID: uint32(i * 7), Rev: 1, Dist2: float32(i)}
	}
	out := v.Reconcile(slices.Clone(wanted), Unlimited, HidesFirst, nil)
	if len(out) != 1000 {
		t.Fatalf("first pass: got %d ops, want 1000", len(out))
	}
	if n := testing.AllocsPerRun(50, func() { out = v.Reconcile(wanted, Unlimited, HidesFirst, out[:0]) }); n != 0 {
		t.Errorf("got %v allocs per steady pass, want 0", n)
	}
}

func TestKindLimits(t *testing.T) {
	cases := []struct {
		k    Kind
		want int
	}{{Labels, 256}, {Checkpoints, 16}, {Blips, 100}, {GangZones, 1024}, {Colshapes, 256}, {Objects, 1000}, {Pickups, Unlimited}}
	for _, c := range cases {
		if got := c.k.Limit(); got != c.want {
			t.Errorf("%v: got limit %d, want %d", c.k, got, c.want)
		}
	}
}

func TestFlushSendsTheRest(t *testing.T) {
	v := New(Unlimited)
	v.Reconcile([]Want{w(1, 1, 1), w(2, 1, 2), w(3, 1, 3)}, Unlimited, HidesFirst, nil)
	got := v.Reconcile([]Want{w(4, 1, 4), w(5, 1, 3), w(6, 1, 5)}, 2, HidesFirst, nil)
	if len(got) != 2 || got[0].Show || got[1].Show || v.Pending() != 4 {
		t.Fatalf("first: got %v pending %d, want two hides and 4 pending", got, v.Pending())
	}
	v.Drop(2) // the client dropped it meanwhile: no hide for it
	var rest []Op
	for v.Pending() > 0 {
		rest = v.Flush(1, HidesFirst, rest)
	}
	hides := 0
	var shows []Op
	for _, op := range rest {
		if op.Show {
			shows = append(shows, op)
		} else {
			hides++
		}
	}
	if want := []Op{show(5, 1), show(4, 1), show(6, 1)}; !slices.Equal(shows, want) {
		t.Errorf("shows: got %v, want %v", shows, want)
	}
	if hides > 1 {
		t.Errorf("got %d more hides, want at most 1 (of 1, 2, 3: two sent, 2 dropped)", hides)
	}
	if got := shownSet(v, 1, 2, 3, 4, 5, 6); !slices.Equal(got, []string{"4@1", "5@1", "6@1"}) {
		t.Errorf("shown: got %v, want 4, 5, 6", got)
	}
}
