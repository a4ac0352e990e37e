package world

import (
	"fmt"
	"time"
)

// The world's rules that run on ticks are stated in time; their counts in
// ticks are worked out from the tick rate (server.tick_hz) once, in New: a
// duration is max(1, round(duration × hz)) ticks, a rate's share of a tick
// max(1, ⌈per second / hz⌉). At 20 Hz they are 4 ticks (far moves, label
// spread), 16 (a crowd's split), 20 (view refresh) and 32 a tick (the views'
// and the labels' minimum); at the default 50 Hz 10, 40, 50 and 13. Left in
// ticks, a server at 50 Hz sent far moves at 12.5 Hz and computed every view
// 2.5 times a second (issue 7: tick p99 7.0 ms against 4.5 ms with the
// counts restated for 50 Hz).
const (
	// FarMoveInterval is how often a viewer is sent the latest state of a
	// player beyond its near ones (player_moves.go): 5 Hz.
	FarMoveInterval = 200 * time.Millisecond
	// CrowdSplitFar is how many far intervals a viewer in a crowd keeps its
	// split of near and far players (player_moves.go): 800 ms.
	CrowdSplitFar = 4
	// ViewRefresh is the longest a due view of players waits for the
	// ticks' budget (players_budget.go): SA-MP's stream_rate.
	ViewRefresh = time.Second
	// ViewRate is how many views of players the ticks of a second may
	// compute at least, in a small world (players_budget.go).
	ViewRate = 640
	// LabelSpread is the longest a pass of labels on players spreads its
	// ops over (label_spread.go).
	LabelSpread = 200 * time.Millisecond
	// LabelRate is how many ops of such passes a viewer is sent a second
	// at least (label_spread.go).
	LabelRate = 640
)

// maxTickHz is the highest tick rate (server.tick_hz); maxFarPhases is the
// far interval in ticks at it, the most far lists a viewer has.
const (
	maxTickHz    = 100
	maxFarPhases = int(FarMoveInterval * maxTickHz / time.Second)
)

// rates is the rules' counts at the world's tick rate. Immutable after New.
type rates struct {
	far         uint32 // FarMoveInterval: a far mover is sent on the ticks with (tick + id) % far == 0
	crowdSplit  uint32 // CrowdSplitFar far intervals: a viewer in a crowd splits its movers on its ticks of it
	viewRefresh int    // ViewRefresh
	viewMin     int    // ViewRate's share of a tick
	labelTicks  int    // LabelSpread
	labelMin    int    // LabelRate's share of a tick

	// By player id, its remainder by far and by crowdSplit: its ticks of
	// them are those whose phase (phaseOf) this is. A split takes the far
	// phase of every shown player (~200): a load here, not a remainder by
	// a count the compiler does not know.
	farPh, crowdPh [MaxPlayers]uint8
}

// ratesOf returns the counts at hz ticks a second, 1..maxTickHz.
func ratesOf(hz int) (rates, error) {
	if hz < 1 || hz > maxTickHz {
		return rates{}, fmt.Errorf("world: server.tick_hz must be 1..%d, got %d", maxTickHz, hz)
	}
	far := ticksOf(FarMoveInterval, hz)
	r := rates{
		far:         uint32(far),
		crowdSplit:  uint32(CrowdSplitFar * far),
		viewRefresh: ticksOf(ViewRefresh, hz),
		viewMin:     perTick(ViewRate, hz),
		labelTicks:  ticksOf(LabelSpread, hz),
		labelMin:    perTick(LabelRate, hz),
	}
	for id := range uint32(MaxPlayers) {
		r.farPh[id], r.crowdPh[id] = uint8(id%r.far), uint8(id%r.crowdSplit)
	}
	return r, nil
}

// ticksOf returns d in ticks at hz: max(1, round(d × hz)).
func ticksOf(d time.Duration, hz int) int {
	return max(1, int((d*time.Duration(hz)+time.Second/2)/time.Second))
}

// perTick returns a rate a second as its share of a tick at hz:
// max(1, ⌈perSecond / hz⌉).
func perTick(perSecond, hz int) int {
	return max(1, (perSecond+hz-1)/hz)
}

// phaseOf returns the remainder by n of the ids whose tick of a period of
// n ticks tick is: (tick + id) % n == 0 exactly when id % n is it.
func phaseOf(tick, n uint32) uint8 {
	return uint8((n - tick%n) % n)
}
