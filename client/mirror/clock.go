package mirror

import (
	"math"
	"time"
)

// The client's game clock (world.md SetTime, RunClock; decision 0090).
//
// Held: SetTime (or a frozen clock in ServerHello) stops the clock at HH:MM
// until the next SetTime or RunClock. Running: RunClock (or a running clock
// in ServerHello) runs it at minute_ms real milliseconds per game minute.
// The first RunClock after a held clock, and any with a new minute_ms, is a
// hard establish: the rate is set and the clock jumps to HH:MM. A later one
// is a resync. The server sends the time of day truncated to the minute, so
// a resync says "the server is within [HH:MM, HH:MM+1)": a client inside
// that minute has no drift, one outside it drifts by its distance to the
// nearest edge. A drift up to SmallDrift game minutes is corrected by
// running the clock faster or slower for a correction window of
// max(CorrectionWindow, 2·|drift|·minute_ms): the rate stays within 0.5..1.5
// of minute_ms and never runs backward. A larger drift (a pause, a menu) is
// a jump to HH:MM.

const (
	// SmallDrift is the largest drift, in game minutes, that a resync
	// corrects by adjusting the clock's rate instead of jumping.
	SmallDrift = 2.0
	// CorrectionWindow is the shortest real time a rate correction runs.
	CorrectionWindow = 10 * time.Second

	dayMinutes = 24 * 60
)

// GameTime is a time of day on the game clock.
type GameTime struct {
	Hours    int     // 0..23
	Minutes  int     // 0..59
	Fraction float64 // the part of the current minute that has passed, [0, 1)
}

// InMinutes returns the time as minutes since midnight, [0, 1440).
func (t GameTime) InMinutes() float64 {
	return float64(t.Hours*60+t.Minutes) + t.Fraction
}

// gameClock is held or running. While running, its time at t is
// base + (t − at)/minuteMs + drift·min(1, (t − at)/window): an anchor plus
// the nominal rate plus a correction spread evenly over the window.
type gameClock struct {
	running  bool
	base     float64 // minutes since midnight at `at`
	at       time.Time
	minuteMs uint32
	drift    float64       // game minutes gained (or lost) over window
	window   time.Duration // 0: no correction
}

// hold stops the clock at hours:minutes.
func (c *gameClock) hold(hours, minutes uint8, now time.Time) {
	*c = gameClock{base: float64(hours)*60 + float64(minutes), at: now}
}

// run applies a RunClock at now: an establish when the clock was held or
// the rate changes, a resync otherwise.
func (c *gameClock) run(hours, minutes uint8, minuteMs uint32, now time.Time) {
	target := float64(hours)*60 + float64(minutes)
	if !c.running || c.minuteMs != minuteMs {
		*c = gameClock{running: true, base: target, at: now, minuteMs: minuteMs}
		return
	}
	cur := c.minutes(now)
	d := c.driftTo(cur, target)
	switch {
	case math.Abs(d) > SmallDrift:
		*c = gameClock{running: true, base: target, at: now, minuteMs: minuteMs}
	default:
		*c = gameClock{running: true, base: cur, at: now, minuteMs: minuteMs}
		if d != 0 {
			c.drift = d
			c.window = max(CorrectionWindow, time.Duration(2*math.Abs(d)*float64(minuteMs))*time.Millisecond)
		}
	}
}

// driftTo returns how many game minutes the clock at cur must gain (or lose,
// negative) to be within the minute that starts at target, across midnight
// the short way round.
func (c *gameClock) driftTo(cur, target float64) float64 {
	d := math.Mod(target-cur, dayMinutes)
	switch {
	case d > dayMinutes/2:
		d -= dayMinutes
	case d <= -dayMinutes/2:
		d += dayMinutes
	}
	switch {
	case d > 0: // behind the minute's start
		return d
	case d > -1: // within the minute
		return 0
	default: // past the minute's end
		return d + 1
	}
}

// minutes returns the clock at now in minutes since midnight, [0, 1440).
func (c *gameClock) minutes(now time.Time) float64 {
	m := c.base
	if c.running {
		el := now.Sub(c.at)
		m += float64(el) / float64(time.Duration(c.minuteMs)*time.Millisecond)
		if c.window > 0 {
			m += c.drift * min(1, max(0, float64(el)/float64(c.window)))
		}
	}
	m = math.Mod(m, dayMinutes)
	if m < 0 {
		m += dayMinutes
	}
	return m
}

// rate returns the clock's current speed as a multiple of its minute_ms
// rate: 1 outside a correction, 0 when held.
func (c *gameClock) rate(now time.Time) float64 {
	if !c.running {
		return 0
	}
	if c.window > 0 && now.Sub(c.at) < c.window {
		return 1 + c.drift*float64(time.Duration(c.minuteMs)*time.Millisecond)/float64(c.window)
	}
	return 1
}

func gameTime(m float64) GameTime {
	whole := math.Floor(m)
	mi := int(whole)
	return GameTime{Hours: mi / 60 % 24, Minutes: mi % 60, Fraction: m - whole}
}
