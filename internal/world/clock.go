package world

import (
	"fmt"
	"time"

	"dlmp/internal/config"
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// The global clock policy (world.md SetTime, RunClock): frozen at HH:MM (the
// default), running at minute_ms per game minute, or real time (RunClock at
// 60000 ms per minute from the wall clock at a fixed UTC offset). The world
// keeps the authoritative clock. Freezing sends SetTime to everyone, a change
// of mode or rate sends RunClock to everyone, both critical; while the clock
// runs, a connection gets RunClock at once (critical) and everyone a
// droppable RunClock every ResyncInterval carrying the current time.

// ResyncInterval is the period of the running clock's droppable resync.
const ResyncInterval = 45 * time.Second

// RealMinuteMs is real time's rate: one real minute per game minute.
const RealMinuteMs = 60000

type clockMode uint8

const (
	clockFrozen clockMode = iota
	clockRunning
	clockReal
)

type clock struct {
	mode     clockMode
	minute   int       // frozen: the time of day; running: the time of day at `at`, in minutes 0..1439
	at       time.Time // running: when the clock was at `minute`
	minuteMs uint32    // running: real milliseconds per game minute
	offset   time.Duration
	resync   time.Time // running or real: when the next resync is due
}

func (c *clock) init(cc config.Clock, now time.Time) error {
	if cc.Hours < 0 || cc.Hours > 23 || cc.Minutes < 0 || cc.Minutes > 59 {
		return fmt.Errorf("world: clock.hours and clock.minutes must be 0..23 and 0..59, got %d:%d", cc.Hours, cc.Minutes)
	}
	c.minute = cc.Hours*60 + cc.Minutes
	c.at = now
	c.resync = now.Add(ResyncInterval)
	switch cc.Mode {
	case "", "frozen":
		c.mode = clockFrozen
	case "running":
		if err := wire.CheckMinuteMs("RunClock", "minute_ms", uint32(max(cc.MinuteMs, 0))); err != nil || cc.MinuteMs < 0 {
			return fmt.Errorf("world: clock.minute_ms must be 10..3600000, got %d", cc.MinuteMs)
		}
		c.mode, c.minuteMs = clockRunning, uint32(cc.MinuteMs)
	case "real":
		if cc.UTCOffsetM < -720 || cc.UTCOffsetM > 840 {
			return fmt.Errorf("world: clock.utc_offset_minutes must be -720..840, got %d", cc.UTCOffsetM)
		}
		c.mode, c.minuteMs, c.offset = clockReal, RealMinuteMs, time.Duration(cc.UTCOffsetM)*time.Minute
	default:
		return fmt.Errorf("world: clock.mode must be frozen, running or real, got %q", cc.Mode)
	}
	return nil
}

// timeOfDay returns the authoritative time at now.
func (c *clock) timeOfDay(now time.Time) (hours, minutes uint8) {
	m := c.minute
	switch c.mode {
	case clockRunning:
		elapsed := now.Sub(c.at).Milliseconds() / int64(c.minuteMs)
		m = int((int64(c.minute) + max(elapsed, 0)) % (24 * 60))
	case clockReal:
		t := now.UTC().Add(c.offset)
		m = t.Hour()*60 + t.Minute()
	}
	return uint8(m / 60), uint8(m % 60)
}

func (c *clock) runPacket(now time.Time) *wire.RunClock {
	h, m := c.timeOfDay(now)
	return &wire.RunClock{Hours: h, Minutes: m, MinuteMs: c.minuteMs}
}

func (c *clock) fillHello(hello *wire.ServerHello, now time.Time) {
	hello.Hours, hello.Minutes = c.timeOfDay(now)
	hello.ClockRunning, hello.MinuteMs = 0, 0
	if c.mode != clockFrozen {
		hello.ClockRunning, hello.MinuteMs = 1, c.minuteMs
	}
}

// Clock returns the authoritative time of day, whether the clock runs and
// its rate (0 when frozen).
func (w *World) Clock() (hours, minutes uint8, running bool, minuteMs uint32) {
	h, m := w.clock.timeOfDay(w.now)
	if w.clock.mode == clockFrozen {
		return h, m, false, 0
	}
	return h, m, true, w.clock.minuteMs
}

// FreezeClock freezes the global clock at hours:minutes and sends SetTime to
// everyone (critical): a frozen clock has no resync.
func (w *World) FreezeClock(hours, minutes uint8) error {
	pkt := &wire.SetTime{Hours: hours, Minutes: minutes}
	if err := pkt.CheckSend(); err != nil {
		return argErr("freeze_clock", "time", err)
	}
	w.clock.mode, w.clock.minute, w.clock.minuteMs = clockFrozen, int(hours)*60+int(minutes), 0
	w.sendAll(pkt, lane.Critical)
	return nil
}

// RunClock runs the global clock from hours:minutes at minuteMs real
// milliseconds per game minute and sends RunClock to everyone (critical).
func (w *World) RunClock(hours, minutes uint8, minuteMs uint32) error {
	pkt := &wire.RunClock{Hours: hours, Minutes: minutes, MinuteMs: minuteMs}
	if err := pkt.CheckSend(); err != nil {
		return argErr("run_clock", "params", err)
	}
	w.clock = clock{mode: clockRunning, minute: int(hours)*60 + int(minutes), at: w.now, minuteMs: minuteMs}
	w.clockChanged()
	return nil
}

// RealClock runs the global clock on real time at a fixed offset from UTC,
// in minutes (-720..=840), and sends RunClock at 60000 ms per minute to
// everyone (critical).
func (w *World) RealClock(utcOffsetMinutes int) error {
	if utcOffsetMinutes < -720 || utcOffsetMinutes > 840 {
		return &ArgError{Func: "real_clock", Arg: "utc_offset_minutes", Rule: fmt.Sprintf("must be -720..840, got %d", utcOffsetMinutes)}
	}
	w.clock = clock{mode: clockReal, minuteMs: RealMinuteMs, offset: time.Duration(utcOffsetMinutes) * time.Minute}
	w.clockChanged()
	return nil
}

// clockChanged sends the new running clock to everyone and restarts the
// resync period.
func (w *World) clockChanged() {
	w.clock.resync = w.now.Add(ResyncInterval)
	w.sendAll(w.clock.runPacket(w.now), lane.Critical)
}

// tickClock sends the periodic resync (droppable) when it is due.
func (w *World) tickClock(now time.Time) {
	if w.clock.mode == clockFrozen || now.Before(w.clock.resync) {
		return
	}
	for !now.Before(w.clock.resync) {
		w.clock.resync = w.clock.resync.Add(ResyncInterval)
	}
	w.sendAll(w.clock.runPacket(now), lane.Snapshot)
}

// SetPlayerTime stops one player's clock at hours:minutes (SetTime,
// critical). The world does not store it: the next RunClock (a resync while
// the global clock runs) resets the player.
func (w *World) SetPlayerTime(p *Player, hours, minutes uint8) error {
	pkt := &wire.SetTime{Hours: hours, Minutes: minutes}
	if err := pkt.CheckSend(); err != nil {
		return argErr("set_player_time", "time", err)
	}
	return w.send(p, pkt, lane.Critical)
}

// SetPlayerWeather switches one player's weather, 0..=22 (SetWeather,
// critical). The world does not store it.
func (w *World) SetPlayerWeather(p *Player, weather uint8) error {
	pkt := &wire.SetWeather{Weather: weather}
	if err := pkt.CheckSend(); err != nil {
		return argErr("set_player_weather", "weather", err)
	}
	return w.send(p, pkt, lane.Critical)
}

// SetWeather sets the server's weather, 0..=22: ServerHello carries it to
// new connections and SetWeather (critical) goes to everyone connected.
func (w *World) SetWeather(weather uint8) error {
	pkt := &wire.SetWeather{Weather: weather}
	if err := pkt.CheckSend(); err != nil {
		return argErr("set_weather", "weather", err)
	}
	w.weather = weather
	w.sendAll(pkt, lane.Critical)
	return nil
}

// Weather returns the server's weather.
func (w *World) Weather() uint8 { return w.weather }
