package netvar

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

var universe = []string{"a", "b", "c", "d"}

// geq reports whether a is at least as broad as b on both axes.
func geq(a, b QueueEntry) bool {
	if b.IsZero() {
		return true
	}
	if a.IsZero() || b.Revokes() && !a.Revokes() {
		return false
	}
	for _, n := range universe {
		if b.Covers(n) && !a.Covers(n) {
			return false
		}
	}
	return true
}

func sameEntry(a, b QueueEntry) bool { return geq(a, b) && geq(b, a) }

func randomEntry(rng *rand.Rand) QueueEntry {
	switch rng.IntN(4) {
	case 0:
		return QueueAll
	case 1:
		return QueueBootstrap
	case 2:
		return QueueEntry{}
	}
	var names []string
	for _, n := range universe {
		if rng.IntN(2) == 0 {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		names = universe[:1]
	}
	return QueueNames(NewNameSet(names...))
}

func TestMergeLatticeTable(t *testing.T) {
	ab, bc := NewNameSet("a", "b"), NewNameSet("b", "c")
	cases := []struct {
		old, in, want QueueEntry
	}{
		{QueueEntry{}, QueueAll, QueueAll},
		{QueueAll, QueueNames(ab), QueueAll},
		{QueueNames(ab), QueueAll, QueueAll},
		{QueueBootstrap, QueueBootstrap, QueueBootstrap},
		{QueueBootstrap, QueueNames(ab), QueueAll},
		{QueueNames(ab), QueueBootstrap, QueueAll},
		{QueueNames(ab), QueueNames(bc), QueueNames(NewNameSet("a", "b", "c"))},
		{QueueBootstrap, QueueAll, QueueAll},
	}
	for _, c := range cases {
		if got := MergeQueueEntry(c.old, c.in); !sameEntry(got, c.want) || got.kind != c.want.kind {
			t.Errorf("Merge(%v, %v) = %v, want %v", c.old, c.in, got, c.want)
		}
	}
	// Stored sets are immutable: merging builds a new set and leaves both
	// inputs as they were.
	m := MergeQueueEntry(QueueNames(ab), QueueNames(bc))
	if m.names == ab || m.names == bc || ab.Len() != 2 || bc.Len() != 2 || ab.Has("c") || bc.Has("a") {
		t.Errorf("merge mutated or reused a stored set: ab=%v bc=%v merged=%v", ab, bc, m.names)
	}
	// A subset merged into its superset keeps the shared superset.
	if got := MergeQueueEntry(QueueNames(ab), QueueNames(NewNameSet("a"))); got.names != ab {
		t.Errorf("merging a subset allocated a new set")
	}
}

// TestMergeLatticeProperties: on random sequences, merging is monotonic
// (never narrower than any input, on either axis) and order-independent.
func TestMergeLatticeProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		seq := make([]QueueEntry, 1+rng.IntN(6))
		for i := range seq {
			seq[i] = randomEntry(rng)
		}
		var acc QueueEntry
		for _, e := range seq {
			next := MergeQueueEntry(acc, e)
			if !geq(next, acc) || !geq(next, e) {
				t.Fatalf("Merge(%v, %v) = %v is narrower than an input", acc, e, next)
			}
			acc = next
		}
		perm := slices.Clone(seq)
		rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		var acc2 QueueEntry
		for _, e := range perm {
			acc2 = MergeQueueEntry(acc2, e)
		}
		if !sameEntry(acc, acc2) || acc.kind != acc2.kind {
			t.Fatalf("order matters: %v gives %v, %v gives %v", seq, acc, perm, acc2)
		}
		// "Only these names, no revokes" never appears.
		if acc.kind == entryNames && !acc.Revokes() {
			t.Fatalf("unrepresentable entry produced: %v", acc)
		}
	}
}

func TestQueuesPurge(t *testing.T) {
	qs := NewQueues()
	car := Ref{KindVehicle, 1}
	qs.Add(1, car, QueueAll)
	qs.Add(1, Ref{KindObject, 2}, QueueBootstrap)
	qs.Add(2, car, QueueNames(NewNameSet("x")))
	qs.RemoveEntity(car)
	if n, _, _ := qs.Depth(1); n != 1 {
		t.Errorf("player 1 depth after entity removal: got %d, want 1", n)
	}
	if n, _, _ := qs.Depth(2); n != 0 || len(qs.ring) != 1 {
		t.Errorf("player 2 depth %d, ring %v; want 0, [1]", n, qs.ring)
	}
	qs.RemovePlayer(1)
	if len(qs.ring) != 0 || qs.Drain(32, 8, func(PlayerID, Ref, QueueEntry) { t.Error("served a purged entry") }) != 0 {
		t.Errorf("queues not empty after purges: ring %v", qs.ring)
	}
}

func TestDrainRatesAndOrder(t *testing.T) {
	qs := NewQueues()
	for p := range PlayerID(3) {
		for e := range uint16(20) {
			qs.Add(p, Ref{KindObject, e}, QueueAll)
		}
	}
	perPlayer := map[PlayerID]int{}
	var last Ref
	n := qs.Drain(10, 4, func(p PlayerID, ent Ref, e QueueEntry) {
		perPlayer[p]++
		if p == 1 && perPlayer[p] > 1 && ent.ID != last.ID+1 {
			t.Errorf("player 1 served %v after %v: want FIFO", ent, last)
		}
		last = ent
	})
	if n != 10 {
		t.Fatalf("served %d, want the server-wide rate 10", n)
	}
	for p, c := range perPlayer {
		if c > 4 {
			t.Errorf("player %d served %d, want at most 4", p, c)
		}
	}
}

// TestDrainFairness: however much other players hold, a player with a
// non-empty queue is served within ceil(players / (rate/perPlayer)) drains.
func TestDrainFairness(t *testing.T) {
	const rate, perPlayer = 32, 8
	for _, players := range []int{1, 3, 4, 5, 17, 100} {
		qs := NewQueues()
		for p := range players {
			for e := range uint16(500) {
				qs.Add(PlayerID(p), Ref{KindObject, e}, QueueAll)
			}
		}
		bound := (players + rate/perPlayer - 1) / (rate / perPlayer)
		lastServed := make([]int, players)
		for tick := 1; tick <= 5*bound+5; tick++ {
			qs.Drain(rate, perPlayer, func(p PlayerID, _ Ref, _ QueueEntry) { lastServed[p] = tick })
			for p := range players {
				if tick-lastServed[p] >= bound {
					t.Fatalf("%d players: player %d not served for %d ticks (bound %d)", players, p, tick-lastServed[p], bound)
				}
			}
		}
	}
	// A small queue among huge ones is emptied within the bound.
	qs := NewQueues()
	for p := range PlayerID(40) {
		for e := range uint16(1000) {
			qs.Add(p, Ref{KindObject, e}, QueueAll)
		}
	}
	qs.Add(40, Ref{KindVehicle, 1}, QueueAll)
	bound := (41 + 3) / 4
	for tick := 1; ; tick++ {
		if tick > bound {
			t.Fatalf("the one-entry queue waited more than %d drains", bound)
		}
		done := false
		qs.Drain(rate, perPlayer, func(p PlayerID, _ Ref, _ QueueEntry) { done = done || p == 40 })
		if done {
			break
		}
	}
}

// TestQueuesReAddAfterPurge: an entity purged and queued again takes its
// place at the back, by its new first queueing (the structure before
// session 6 served it at its purged place, ahead of later entities).
func TestQueuesReAddAfterPurge(t *testing.T) {
	qs := NewQueues()
	a, b := Ref{KindVehicle, 1}, PlayerRef(2)
	qs.Add(1, a, QueueAll)
	qs.Add(1, b, QueueAll)
	qs.RemoveEntity(a)
	qs.Add(1, a, QueueBootstrap)
	var got []Ref
	qs.Drain(32, 8, func(_ PlayerID, r Ref, _ QueueEntry) { got = append(got, r) })
	if want := []Ref{b, a}; !slices.Equal(got, want) {
		t.Errorf("served %v, want %v", got, want)
	}
}

// TestResyncRequestDroppedWhole: a request whose later entity is
// malformed queues none of its earlier, well-formed ones.
func TestResyncRequestDroppedWhole(t *testing.T) {
	r, lb := newTestRegistry(t)
	r.Register("x").SetEntity().Bool()
	h := newHarness(t, r, lb, []PlayerID{1})
	for _, c := range []struct {
		name    string
		payload []byte
	}{
		{"kind none", AppendResyncRequest(nil, []Ref{car, {KindPlayer, 1}, {}})},
		{"truncated", AppendResyncRequest(nil, []Ref{car, {KindObject, 3}})[:3]},
		{"trailing", append(AppendResyncRequest(nil, []Ref{car}), 0xff)},
	} {
		if err := h.st.ResyncRequest(1, c.payload); !errors.Is(err, ErrBadRequest) {
			t.Errorf("%s: err %v, want ErrBadRequest", c.name, err)
		}
		if n, _, _ := h.st.Queues().Depth(1); n != 0 {
			t.Errorf("%s: queued %d entities of a malformed request, want 0", c.name, n)
		}
	}
	if err := h.st.ResyncRequest(1, AppendResyncRequest(nil, []Ref{car, {KindPlayer, 1}})); err != nil {
		t.Fatal(err)
	}
	if n, _, _ := h.st.Queues().Depth(1); n != 2 {
		t.Errorf("well-formed request queued %d entities, want 2", n)
	}
}
