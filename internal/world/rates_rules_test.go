package world

import (
	"testing"
	"time"

	"dlmp/internal/config"
	"dlmp/internal/wire"
)

// rateCases are the tick rates the rules in time are checked at, the
// default and issue 7's 50 Hz, with their counts written out (rates.go).
var rateCases = []struct {
	hz         int
	far        int // FarMoveInterval, ticks
	refresh    int // ViewRefresh, ticks
	viewMin    int // ViewRate's share of a tick
	labelTicks int // LabelSpread, ticks
	spread150  int // a label pass of 150 ops: max(LabelRate's share, ⌈150 / labelTicks⌉) a tick
}{
	{hz: 20, far: 4, refresh: 20, viewMin: 32, labelTicks: 4, spread150: 38},
	{hz: 50, far: 10, refresh: 50, viewMin: 13, labelTicks: 10, spread150: 15},
}

// newFixtureAt is a fixture whose world ticks at hz, and its tick.
func newFixtureAt(t *testing.T, hz int) (*fixture, time.Duration) {
	t.Helper()
	return newFixture(t, func(c *config.Config) { c.Server.TickHz = hz }), time.Second / time.Duration(hz)
}

// movesOfX returns the PlayerMoves of player id among ps, and the x of the
// last.
func movesOfX(ps []wire.Packet, id uint16) (n int, x float32) {
	for _, p := range ps {
		if m, ok := p.(*wire.PlayerMove); ok && m.PlayerID == id {
			n, x = n+1, m.X
		}
	}
	return n, x
}

// TestFarMovesEveryFarInterval: a viewer beyond NearMoveDistance gets a
// running player's PlayerMove every 200 ms, every 4 ticks at 20 Hz and
// every 10 at 50, a near viewer every tick's; and a single sync reaches
// the far viewer on its next far tick however many ticks before it came
// (up to 3 at 20 Hz, 9 at 50).
func TestFarMovesEveryFarInterval(t *testing.T) {
	for _, rc := range rateCases {
		f, step := newFixtureAt(t, rc.hz)
		mover, mc := f.joinE()
		near, nc := f.joinE()
		far, fc := f.joinE()
		f.spawn(mover, mc.testConn, at(0, 0))
		f.spawn(near, nc.testConn, at(10, 0))
		f.spawn(far, fc.testConn, at(200, 0))
		f.advance(step)
		nc.takeMoves()
		fc.takeMoves()
		x := float32(0)
		var farTicks []int
		for i := range 4 * rc.far {
			x += 0.3
			f.sync(mover, mc.testConn, at(x, 0), 1)
			f.advance(step)
			if n, _ := movesOfX(nc.takeMoves(), mover.ID()); n != 1 {
				t.Fatalf("%d Hz, tick %d: near viewer got %d moves, want 1", rc.hz, i, n)
			}
			if n, _ := movesOfX(fc.takeMoves(), mover.ID()); n > 0 {
				farTicks = append(farTicks, i)
			}
		}
		if len(farTicks) != 4 {
			t.Fatalf("%d Hz: far viewer got moves on ticks %v of %d, want 4 of them", rc.hz, farTicks, 4*rc.far)
		}
		for j := 1; j < len(farTicks); j++ {
			if d := farTicks[j] - farTicks[j-1]; d != rc.far {
				t.Fatalf("%d Hz: far viewer got moves on ticks %v, want every %d", rc.hz, farTicks, rc.far)
			}
		}
		for range rc.far { // the last moves out
			f.advance(step)
		}
		fc.takeMoves()
		// Rounds of far+1 ticks: the sync comes one tick later in the far
		// interval each round, the far tick after it 0..far-1 ticks on.
		for k := range rc.far {
			x += 0.3
			f.sync(mover, mc.testConn, at(x, 0), 1)
			for range rc.far + 1 {
				f.advance(step)
			}
			if n, last := movesOfX(fc.takeMoves(), mover.ID()); n != 1 || last != x {
				t.Fatalf("%d Hz, round %d: far viewer got %d moves (last x %v) of a sync at x %v, want that one", rc.hz, k, n, last, x)
			}
		}
	}
}

// TestViewBudgetAtTickRate: the views of players a tick computes are at
// least 640 a second's share (32 a tick at 20 Hz, 13 at 50): players
// spawned together have that many computed on the first tick. In a crowd
// of more than a second of those on one spot, every view due on every
// tick, a tick computes ⌈players / ticks of a second⌉ at most and every
// view is computed at least once in any second (20 ticks at 20 Hz, 50 at
// 50).
func TestViewBudgetAtTickRate(t *testing.T) {
	for _, rc := range rateCases {
		f, step := newFixtureAt(t, rc.hz)
		for i := range 2*rc.viewMin + rc.viewMin/2 {
			p, c := f.join()
			f.spawn(p, c, at(float32(i%50)*3, float32(i/50)*3))
		}
		p0 := f.w.ents.passes[0]
		f.advance(step)
		if got := f.w.ents.passes[0] - p0; got != uint64(rc.viewMin) {
			t.Fatalf("%d Hz: the first tick of a burst computed %d views, want %d", rc.hz, got, rc.viewMin)
		}

		f, step = newFixtureAt(t, rc.hz)
		n := rc.refresh*rc.viewMin + 3*rc.refresh + 7
		var ps []*Player
		for i := range n {
			p, c := f.join()
			f.spawn(p, c, at(float32(i%40)*2, float32(i/40)*2))
			ps = append(ps, p)
		}
		budget := (n + rc.refresh - 1) / rc.refresh
		last := make([]int, n) // the tick each view was last computed
		for k := 1; k <= 3*rc.refresh; k++ {
			for _, p := range ps {
				p.ent.playerAt.Invalidate()
			}
			p0 := f.w.ents.passes[0]
			f.advance(step)
			if got := f.w.ents.passes[0] - p0; got > uint64(budget) {
				t.Fatalf("%d Hz, tick %d: computed %d views of %d players, want at most %d", rc.hz, k, got, n, budget)
			}
			for i, p := range ps {
				if !p.ent.playerAt.Due(p.pos, requeryOf(p.id)) {
					last[i] = k
				}
				if k > rc.refresh && k-last[i] >= rc.refresh {
					t.Fatalf("%d Hz, tick %d: player %d's view last computed on tick %d, want within %d ticks", rc.hz, k, p.ID(), last[i], rc.refresh)
				}
			}
		}
	}
}

// TestLabelSpreadAtTickRate: a viewer among 150 players with name labels
// is sent their Label3D at most max(640 a second's share, ⌈150 / the
// ticks of 200 ms⌉) a tick (38 at 20 Hz, 15 at 50), at that rate, all
// within 200 ms (4 ticks at 20 Hz, 10 at 50).
func TestLabelSpreadAtTickRate(t *testing.T) {
	const n = 150
	for _, rc := range rateCases {
		f, step := newFixtureAt(t, rc.hz)
		_, vc, _, _ := spreadCrowd(f, n, 1)
		m := &labelMirror{players: map[uint16]bool{}, labels: map[uint32]bool{}}
		first, shown, most := -1, 0, 0
		for k := range 3 * rc.hz {
			f.advance(step)
			shows, ops := m.apply(t, vc.take())
			if ops > rc.spread150 {
				t.Fatalf("%d Hz, tick %d: %d label ops, want at most %d", rc.hz, k, ops, rc.spread150)
			}
			most = max(most, ops)
			if len(shows) > 0 && first < 0 {
				first = k
			}
			if shown += len(shows); shown == n {
				if k-first >= rc.labelTicks || most != rc.spread150 {
					t.Fatalf("%d Hz: the %d labels went out over ticks %d..%d, at most %d a tick, want within %d ticks at %d",
						rc.hz, n, first, k, most, rc.labelTicks, rc.spread150)
				}
				break
			}
		}
		if shown != n {
			t.Fatalf("%d Hz: %d labels shown in %d ticks, want %d", rc.hz, shown, 3*rc.hz, n)
		}
	}
}
