package world

import "testing"

// Players who run in step (spawned together, one goal) reach the requery
// distance at the same time: their views of players compute again on
// different ticks (requeryOf), and stay exact.
func TestPlayersInStepRequeryOnDifferentTicks(t *testing.T) {
	f := newFixture(t, nil)
	const n = 32
	ps := make([]*Player, n)
	cs := make([]*testConn, n)
	for i := range n {
		ps[i], cs[i] = f.join()
		f.spawn(ps[i], cs[i], at(float32(i*5), 0))
	}
	f.advance(tick)
	worst, total := uint64(0), uint64(0)
	const steps = 40 // 12 m: every player requeries at least twice
	for k := 1; k <= steps; k++ {
		f.now = f.now.Add(tick)
		for i, p := range ps {
			f.sync(p, cs[i], at(float32(i*5)+0.3*float32(k), 0), 1)
		}
		before := f.w.ents.passes[0]
		f.w.Tick(f.now)
		d := f.w.ents.passes[0] - before
		worst, total = max(worst, d), total+d
	}
	if worst > n/2 {
		t.Errorf("got %d views of players computed on one tick, want at most %d (spread over ticks)", worst, n/2)
	}
	if total < 2*n || total > 4*n {
		t.Errorf("got %d views computed in %d ticks, want each player's 2 or 3 times (%d..%d)", total, steps, 2*n, 4*n)
	}
	for i, p := range ps {
		if got := p.ent.players.Len(); got != n-1 {
			t.Errorf("player %d shown %d players, want %d", i, got, n-1)
		}
	}
}
