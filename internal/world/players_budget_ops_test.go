package world

import (
	"slices"
	"testing"

	"dlmp/internal/wire"
)

// opsCrowd spawns n players on one spot (within 30 m of each other), each
// with labels name labels attached: every view of players is due on the
// next tick and shows the n-1 others.
func opsCrowd(f *fixture, n, labels int) []*Player {
	f.t.Helper()
	var ps []*Player
	for i := range n {
		p, c := f.join()
		f.spawn(p, c, at(float32(i%10)*3, float32(i/10)*3))
		for range labels {
			if _, err := f.w.CreateLabel(LabelParams{Text: p.Name(), Color: 0xFFFF80, DrawDistance: 40,
				AttachKind: wire.AttachPlayer, AttachID: uint32(p.ID())}); err != nil {
				f.t.Fatal(err)
			}
		}
		ps = append(ps, p)
	}
	return ps
}

// idsOf returns the ids of ps.
func idsOf(ps []*Player) []uint16 {
	var s []uint16
	for _, p := range ps {
		s = append(s, p.ID())
	}
	return s
}

// TestViewOpsBudgetSpreadsABurst: 120 players with a name label each spawn
// together, so every view of players is due on one tick and shows 119
// players: 238 ops with their labels, 32 views 7616, past the tick's ops
// budget of 32 × ViewOpsPerView. Each tick computes views until their ops
// cross the budget (22: 21 × 238 below it, the 22nd across), fewer than
// the count budget; the rest stay due and go first on the next ticks,
// oldest first, a view that falls due again behind them. After the burst
// every view equals one computed from scratch, and each was deferred once.
func TestViewOpsBudgetSpreadsABurst(t *testing.T) {
	f := newFixture(t, nil)
	const n = 120
	ps := opsCrowd(f, n, 1)
	conns := make([]*testConn, n)
	for i, p := range ps {
		conns[i] = p.conn.(*testConn)
		conns[i].take()
	}
	const perView = 2 * (n - 1) // its shows and their labels
	budget := ViewBudgetMin * ViewOpsPerView
	if got := f.w.viewBudget() * ViewOpsPerView; got != budget {
		t.Fatalf("ops budget %d, want %d", got, budget)
	}
	views := budget/perView + 1 // the last crosses the budget
	if views >= ViewBudgetMin || views < ViewOpsFloor {
		t.Fatalf("the burst computes %d views a tick: not bounded by the ops budget", views)
	}
	// step runs tick k and checks its views and the shows they sent (the
	// first player's view, computed again, shows nothing new): the ops of
	// all but its last view within the budget.
	step := func(k, want, showing int) {
		t.Helper()
		p0 := f.w.ents.passes[0]
		f.advance(tick)
		if got := f.w.ents.passes[0] - p0; got != uint64(want) {
			t.Fatalf("tick %d computed %d views, want %d", k, got, want)
		}
		shows := 0
		for _, c := range conns {
			shows += len(only[*wire.PlayerShow](c.take()))
		}
		if ops := 2 * shows; shows != showing*(n-1) || ops-perView >= budget {
			t.Fatalf("tick %d sent %d PlayerShows (%d ops with their labels), want %d views' %d, within the budget %d but for the last view",
				k, shows, ops, showing, showing*(n-1), budget)
		}
	}

	step(1, views, views)
	if got, want := dueViews(ps), idsOf(ps[views:]); !slices.Equal(got, want) {
		t.Fatalf("after tick 1 due %v, want the last %d: %v", got, len(want), want)
	}
	// The first player's view falls due again: behind the deferred ones.
	ps[0].ent.playerAt.Invalidate()
	step(2, views, views)
	if got, want := dueViews(ps), append([]uint16{ps[0].ID()}, idsOf(ps[2*views:])...); !slices.Equal(got, want) {
		t.Fatalf("after tick 2 due %v, want the oldest deferred computed first, due %v", got, want)
	}
	k := 2
	left := n - 2*views
	for ; left > views; left -= views {
		k++
		step(k, views, views)
	}
	k++
	step(k, left+1, left) // the last of the burst, and the first player's view behind them
	if got := dueViews(ps); len(got) != 0 {
		t.Fatalf("after tick %d due %v, want none", k, got)
	}
	if got, want := f.w.ents.views.total, uint64(n-views+1); got != want { // each deferred once
		t.Errorf("views deferred %d, want %d", got, want)
	}
	if got, want := f.w.ents.views.waitMax, uint32(k-1); got != want {
		t.Errorf("the longest wait %d ticks, want %d (deferred on tick 1, computed on tick %d)", got, want, k)
	}
	for _, q := range ps {
		var shown []uint32
		for _, o := range ps {
			if _, ok := q.ent.players.Shown(uint32(o.ID())); ok {
				shown = append(shown, uint32(o.ID()))
			}
		}
		if want := wantedPlayers(q, ps); !slices.Equal(shown, want) {
			t.Fatalf("player %d shows %d players %v, want from scratch %d %v", q.ID(), len(shown), shown, len(want), want)
		}
	}
}

// TestViewOpsFloor: views that each emit more than the ops budget's share
// of ViewOpsFloor views (199 shows, each with 3 labels: 796 ops) are still
// computed ViewOpsFloor a tick, though the budget is crossed before: the
// streaming of players always makes progress.
func TestViewOpsFloor(t *testing.T) {
	f := newFixture(t, nil)
	const n = PlayerLimit
	ps := opsCrowd(f, n, 3)
	if perView := 4 * (n - 1); ViewOpsFloor*perView <= ViewBudgetMin*ViewOpsPerView+perView {
		t.Fatalf("%d views of %d ops are within the budget: not a test of the floor", ViewOpsFloor, perView)
	}
	for k := 1; k <= 3; k++ {
		p0 := f.w.ents.passes[0]
		f.advance(tick)
		if got := f.w.ents.passes[0] - p0; got != ViewOpsFloor {
			t.Fatalf("tick %d computed %d views, want the floor %d", k, got, ViewOpsFloor)
		}
	}
	if got, want := dueViews(ps), idsOf(ps[3*ViewOpsFloor:]); !slices.Equal(got, want) {
		t.Fatalf("after 3 ticks due %v, want the views past the first %d: %v", got, 3*ViewOpsFloor, want)
	}
}
