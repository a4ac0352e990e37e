package world

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"dlmp/internal/config"
	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// The once-a-second work of the players is spread over the ticks of a
// second: however many players join or land in one tick, after that tick's
// passes no tick runs more than its share of slow passes.
func TestSlowPassesSpreadOverTheSecond(t *testing.T) {
	perSecond := int(SlowPass / tick)
	for _, players := range []int{1000, 100, 7} {
		t.Run(fmt.Sprint(players), func(t *testing.T) {
			f := newFixture(t, func(c *config.Config) { c.Server.MaxPlayers = players })
			r := rand.New(rand.NewPCG(1, 2))
			var ps []*Player
			for range players { // all join and spawn in the same tick
				var h wire.ServerHello
				p, _ := f.w.Join(&nullConn{}, &h)
				pos := grid.Vec{X: float32(r.IntN(2000)), Y: float32(r.IntN(2000)), Z: 10}
				if err := f.w.Spawn(p, SpawnParams{Landing: Landing{Pos: pos}, Skin: 1, Health: 100}); err != nil {
					t.Fatal(err)
				}
				ps = append(ps, p)
			}
			share := (players + perSecond - 1) / perSecond
			check := func(when string) {
				t.Helper()
				f.advance(tick) // the landing's passes: everyone's, at once
				var total passCounts
				for i := range 3 * perSecond {
					before := countPasses(f.w)
					f.advance(tick)
					after := countPasses(f.w)
					for k := 3; k < len(after); k++ {
						n := after[k] - before[k]
						if n > uint64(share) {
							t.Fatalf("%s: tick %d ran %d %s passes, want at most %d (%d players over %d ticks)",
								when, i, n, passUnits[k], share, players, perSecond)
						}
						total[k] += n
					}
				}
				for k := 3; k < len(total); k++ {
					want := uint64(3 * players) // one per player per second
					if k == 3+int(primZones) {
						want = 0 // on the slow pass only after ZoneRequery meters: nobody moves
					}
					if total[k] != want {
						t.Fatalf("%s: %d %s passes in 3 s, want %d", when, total[k], passUnits[k], want)
					}
				}
			}
			check("after joining in one tick")
			for _, p := range ps { // everyone teleported in the same tick
				if err := f.w.Teleport(p, Landing{Pos: grid.Vec{X: 3000, Y: 3000, Z: 10}}); err != nil {
					t.Fatal(err)
				}
			}
			check("after landing in one tick")
		})
	}
}

// The next slow pass is strictly after now, at the player's phase, whatever
// now is (before the world's start, on the phase, between two).
func TestNextSlowPass(t *testing.T) {
	f := newFixture(t, func(c *config.Config) { c.Server.MaxPlayers = 10 })
	p := &Player{id: 3} // phase 300 ms
	for _, tc := range []struct {
		now, want time.Duration // after the world's start
	}{
		{-2 * time.Second, 300 * time.Millisecond},
		{0, 300 * time.Millisecond},
		{299 * time.Millisecond, 300 * time.Millisecond},
		{300 * time.Millisecond, 1300 * time.Millisecond},
		{301 * time.Millisecond, 1300 * time.Millisecond},
		{5250 * time.Millisecond, 5300 * time.Millisecond},
	} {
		if got := f.w.nextSlowPass(p, t0.Add(tc.now)).Sub(t0); got != tc.want {
			t.Errorf("now start%+v: got start%+v, want start%+v", tc.now, got, tc.want)
		}
	}
}
