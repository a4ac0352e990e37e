package world

import (
	"slices"
	"testing"
)

// advanceViews runs enough ticks for n views of players due at once to be
// computed within the budget of each tick.
func (f *fixture) advanceViews(n int) {
	f.t.Helper()
	for range (n + f.w.viewBudget() - 1) / f.w.viewBudget() {
		f.advance(tick)
	}
}

// dueViews returns the ids of the players whose view of players is due.
func dueViews(ps []*Player) []uint16 {
	var ids []uint16
	for _, p := range ps {
		if p.ent.playerAt.Due(p.pos, requeryOf(p.id)) {
			ids = append(ids, p.ID())
		}
	}
	return ids
}

// wantedPlayers is a view of players computed from scratch when none is
// held: the ids of the PlayerLimit nearest others within
// PlayerStreamDistance, ties by id (heldWanted's rule without the hold).
func wantedPlayers(q *Player, ps []*Player) []uint32 {
	return heldWanted(q, ps, func(uint16) bool { return false })
}

// TestViewBudgetSpreadsABurst: 2×ViewBudgetMin+50 players spawn together, so
// every view of players is due on one tick. Each tick computes ViewBudgetMin
// views at most; the rest stay due and go first on the next ticks, oldest
// first: a view that falls due again behind them waits its turn. After the
// burst every view equals one computed from scratch, and each was computed
// once (none lost, none twice).
func TestViewBudgetSpreadsABurst(t *testing.T) {
	f := newFixture(t, nil)
	n := 2*ViewBudgetMin + ViewBudgetMin/2
	var ps []*Player
	for i := range n {
		p, c := f.join()
		f.spawn(p, c, at(float32(i%50)*3, float32(i/50)*3))
		ps = append(ps, p)
	}
	ids := func(ps []*Player) []uint16 {
		var s []uint16
		for _, p := range ps {
			s = append(s, p.ID())
		}
		return s
	}
	passes := func() uint64 { return f.w.ents.passes[0] }

	p0 := passes()
	f.advance(tick)
	if got := passes() - p0; got != ViewBudgetMin {
		t.Fatalf("tick 1 computed %d views, want the budget %d", got, ViewBudgetMin)
	}
	if got, want := dueViews(ps), ids(ps[ViewBudgetMin:]); !slices.Equal(got, want) {
		t.Fatalf("after tick 1 due %v, want the last %d: %v", got, len(want), want)
	}

	// The first player's view falls due again: behind the deferred ones.
	ps[0].ent.playerAt.Invalidate()
	p0 = passes()
	f.advance(tick)
	if got := passes() - p0; got != ViewBudgetMin {
		t.Fatalf("tick 2 computed %d views, want the budget %d", got, ViewBudgetMin)
	}
	if got, want := dueViews(ps), append([]uint16{ps[0].ID()}, ids(ps[2*ViewBudgetMin:])...); !slices.Equal(got, want) {
		t.Fatalf("after tick 2 due %v, want the oldest deferred computed first, due %v", got, want)
	}

	p0 = passes()
	f.advance(tick)
	if got, want := passes()-p0, uint64(n-2*ViewBudgetMin+1); got != want {
		t.Fatalf("tick 3 computed %d views, want the %d left", got, want)
	}
	if got := dueViews(ps); len(got) != 0 {
		t.Fatalf("after tick 3 due %v, want none", got)
	}
	if got, want := f.w.ents.views.total, uint64(n-ViewBudgetMin+1); got != want { // each deferred once
		t.Errorf("views deferred %d, want %d", got, want)
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

// TestViewBudgetRefreshesEveryViewInASecond: a crowd of more than
// ViewRefreshTicks × ViewBudgetMin players on one spot, every view due on
// every tick. Each tick computes the budget, ceil(players /
// ViewRefreshTicks), and every view is computed at least once in any
// ViewRefreshTicks ticks: none is starved by the views that fall due again.
func TestViewBudgetRefreshesEveryViewInASecond(t *testing.T) {
	f := newFixture(t, nil)
	n := ViewRefreshTicks*ViewBudgetMin + 3*ViewRefreshTicks + 7
	var ps []*Player
	for i := range n {
		p, c := f.join()
		f.spawn(p, c, at(float32(i%40)*2, float32(i/40)*2))
		ps = append(ps, p)
	}
	budget := (n + ViewRefreshTicks - 1) / ViewRefreshTicks
	if got := f.w.viewBudget(); got != budget {
		t.Fatalf("budget %d, want ceil(%d / %d) = %d", got, n, ViewRefreshTicks, budget)
	}
	last := make([]int, n) // the tick each view was last computed
	for k := 1; k <= 4*ViewRefreshTicks; k++ {
		for _, p := range ps {
			p.ent.playerAt.Invalidate()
		}
		p0 := f.w.ents.passes[0]
		f.advance(tick)
		if got := f.w.ents.passes[0] - p0; got > uint64(budget) {
			t.Fatalf("tick %d computed %d views, want at most %d", k, got, budget)
		}
		for i, p := range ps {
			if !p.ent.playerAt.Due(p.pos, requeryOf(p.id)) {
				last[i] = k
			}
			if k > ViewRefreshTicks && k-last[i] >= ViewRefreshTicks {
				t.Fatalf("tick %d: player %d's view last computed on tick %d, want within %d ticks", k, p.ID(), last[i], ViewRefreshTicks)
			}
		}
	}
}
