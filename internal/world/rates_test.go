package world

import (
	"strings"
	"testing"

	"dlmp/internal/config"
)

// The counts of rates.go at the default tick rate, 20 Hz, as the tests of
// the default world (config.Default) read them; TestRatesOf checks that
// the world derives them.
const (
	FarMoveEvery     = 4
	CrowdSplitEvery  = 4 * FarMoveEvery
	ViewRefreshTicks = 20
	ViewBudgetMin    = 32
	LabelSpreadTicks = 4
	LabelSpreadMin   = 32
)

// TestRatesOf: the counts at a few tick rates, written out: at 20 Hz
// today's, at 50 Hz the ones issue 7's run restated by hand, and the
// rounding and the floors of 1 at the ends of 1..100.
func TestRatesOf(t *testing.T) {
	tests := []struct {
		hz                                  int
		far, crowd, refresh, viewMin, ticks int
		labelMin                            int
	}{
		{20, FarMoveEvery, CrowdSplitEvery, ViewRefreshTicks, ViewBudgetMin, LabelSpreadTicks, LabelSpreadMin},
		{50, 10, 40, 50, 13, 10, 13},
		{1, 1, 4, 1, 640, 1, 640},
		{3, 1, 4, 3, 214, 1, 214},    // 0.6 ticks rounds to 1; ⌈213.3⌉
		{12, 2, 8, 12, 54, 2, 54},    // 2.4 rounds to 2; ⌈53.3⌉
		{13, 3, 12, 13, 50, 3, 50},   // 2.6 rounds to 3; ⌈49.2⌉
		{100, 20, 80, 100, 7, 20, 7}, // ⌈6.4⌉
	}
	for _, tt := range tests {
		r, err := ratesOf(tt.hz)
		if err != nil {
			t.Fatalf("%d Hz: %v", tt.hz, err)
		}
		got := [...]int{int(r.far), int(r.crowdSplit), r.viewRefresh, r.viewMin, r.labelTicks, r.labelMin}
		want := [...]int{tt.far, tt.crowd, tt.refresh, tt.viewMin, tt.ticks, tt.labelMin}
		if got != want {
			t.Errorf("%d Hz: got far, crowd split, view refresh, view min, label ticks, label min %v, want %v", tt.hz, got, want)
		}
	}
	if r, _ := ratesOf(testConfig().Server.TickHz); r.far != FarMoveEvery {
		t.Errorf("the tests' config's far interval is %d ticks, want the tests' %d", r.far, FarMoveEvery)
	}
	for hz := 1; hz <= maxTickHz; hz++ {
		if r, _ := ratesOf(hz); int(r.far) > maxFarPhases {
			t.Fatalf("%d Hz: %d far phases, more than a viewer's %d lists", hz, r.far, maxFarPhases)
		}
	}
}

// TestNewRefusesTickRate: New refuses a tick rate outside 1..100, naming
// server.tick_hz, and takes the ends.
func TestNewRefusesTickRate(t *testing.T) {
	for _, hz := range []int{0, -1, 101} {
		c := config.Default()
		c.Server.TickHz = hz
		if _, err := New(c, nil, t0); err == nil || !strings.Contains(err.Error(), "server.tick_hz must be 1..100") {
			t.Errorf("tick_hz %d: got %v, want an error naming server.tick_hz", hz, err)
		}
	}
	for _, hz := range []int{1, 100} {
		c := config.Default()
		c.Server.TickHz = hz
		if _, err := New(c, nil, t0); err != nil {
			t.Errorf("tick_hz %d: %v", hz, err)
		}
	}
}

// TestPhases: a player's far tick and crowd split by its phases
// (rates.farPh, crowdPh) against the tick's (phaseOf) are the ticks with
// (tick + id) % n == 0, at tick rates whose periods are not powers of two
// too.
func TestPhases(t *testing.T) {
	for _, hz := range []int{1, 13, 20, 50, 100} {
		r, _ := ratesOf(hz)
		for _, pc := range []struct {
			n  uint32
			ph *[MaxPlayers]uint8
		}{{r.far, &r.farPh}, {r.crowdSplit, &r.crowdPh}} {
			for tick := range 3 * pc.n {
				for id := range uint32(MaxPlayers) {
					if due, in := (tick+id)%pc.n == 0, pc.ph[id] == phaseOf(tick, pc.n); due != in {
						t.Fatalf("%d Hz, period %d, tick %d, id %d: due %v, but phase %d of the tick's %d", hz, pc.n, tick, id, due, pc.ph[id], phaseOf(tick, pc.n))
					}
				}
			}
		}
	}
}
