package world

import (
	"testing"
	"time"

	"dlmp/internal/config"
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

func hello(t *testing.T, w *World) (wire.ServerHello, *testConn) {
	t.Helper()
	c := newConn(t)
	var h wire.ServerHello
	if _, ok := w.Join(c, &h); !ok {
		t.Fatal("server full")
	}
	return h, c
}

func TestClockFrozenByDefault(t *testing.T) {
	f := newFixture(t, nil) // config default: frozen at 12:00, weather 1
	h, c := hello(t, f.w)
	if h.ClockRunning != 0 || h.Hours != 12 || h.Minutes != 0 || h.MinuteMs != 0 || h.Weather != 1 || h.GarageOpen != 0 {
		t.Fatalf("got hello clock %d %d:%d %d weather %d, want frozen 12:00, weather 1, doors closed", h.ClockRunning, h.Hours, h.Minutes, h.MinuteMs, h.Weather)
	}
	f.advance(10 * time.Minute)
	if len(c.take()) != 0 {
		t.Fatal("a frozen clock sent something")
	}
	if hh, mm, running, _ := f.w.Clock(); running || hh != 12 || mm != 0 {
		t.Fatalf("frozen clock moved to %d:%d (running %v)", hh, mm, running)
	}
}

func TestRunningClockOnConnectAndResync(t *testing.T) {
	f := newFixture(t, func(c *config.Config) {
		c.Clock.Mode, c.Clock.Hours, c.Clock.Minutes, c.Clock.MinuteMs = "running", 6, 30, 1000
	})
	f.now = f.now.Add(90 * time.Second) // 90 game minutes later: 08:00
	f.w.Tick(f.now)
	h, c := hello(t, f.w)
	if h.ClockRunning != 1 || h.Hours != 8 || h.Minutes != 0 || h.MinuteMs != 1000 {
		t.Fatalf("got hello %d %d:%d %d, want running 08:00 at 1000", h.ClockRunning, h.Hours, h.Minutes, h.MinuteMs)
	}
	out := c.take()
	rc := only[*wire.RunClock](out)
	if len(out) != 1 || len(rc) != 1 || out[0].id != 1 || out[0].class != lane.Critical || rc[0].Hours != 8 {
		t.Fatalf("got %+v, want RunClock 08:00 as the first event, critical", out)
	}
	// The resync every 45 s, droppable, with the current time.
	f.advance(44 * time.Second)
	if n := len(c.take()); n != 0 {
		t.Fatalf("got %d packets before the resync interval", n)
	}
	f.advance(50 * time.Second) // t0 + 184 s: the resync was due at t0 + 135 s
	out = c.take()
	rc = only[*wire.RunClock](out)
	if len(rc) != 1 || out[0].class != lane.Snapshot || rc[0].Hours != 9 || rc[0].Minutes != 34 {
		t.Fatalf("got %+v, want one snapshot RunClock at 09:34", out)
	}
}

func TestClockModeChanges(t *testing.T) {
	f := newFixture(t, nil)
	_, a := hello(t, f.w)
	_, b := hello(t, f.w)
	if err := f.w.RunClock(20, 15, 2000); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*testConn{a, b} {
		out := c.take()
		rc := only[*wire.RunClock](out)
		if len(rc) != 1 || out[0].class != lane.Critical || rc[0].Hours != 20 || rc[0].MinuteMs != 2000 {
			t.Fatalf("got %+v, want a critical RunClock 20:15 at 2000 to everyone", out)
		}
	}
	if err := f.w.RunClock(20, 15, 500); err != nil { // a change of rate
		t.Fatal(err)
	}
	if out := a.take(); len(out) != 1 || out[0].class != lane.Critical {
		t.Fatalf("change of rate: got %+v, want a critical RunClock", out)
	}
	b.take()
	if err := f.w.FreezeClock(23, 59); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*testConn{a, b} {
		out := c.take()
		st := only[*wire.SetTime](out)
		if len(st) != 1 || out[0].class != lane.Critical || st[0].Hours != 23 || st[0].Minutes != 59 {
			t.Fatalf("got %+v, want a critical SetTime 23:59 to everyone", out)
		}
	}
	f.advance(2 * ResyncInterval)
	if len(a.take()) != 0 {
		t.Fatal("a frozen clock resynced")
	}
	wantArgErr(t, f.w.RunClock(24, 0, 1000), "run_clock", "params")
	wantArgErr(t, f.w.RunClock(1, 0, 9), "run_clock", "params")
	wantArgErr(t, f.w.FreezeClock(0, 60), "freeze_clock", "time")
	wantArgErr(t, f.w.RealClock(841), "real_clock", "utc_offset_minutes")
	if len(a.out) != 0 {
		t.Fatal("a refused clock change sent something")
	}
}

func TestRealClock(t *testing.T) {
	f := newFixture(t, nil)
	_, c := hello(t, f.w)
	if err := f.w.RealClock(-150); err != nil { // UTC−2:30; t0 is 10:00 UTC
		t.Fatal(err)
	}
	rc := only[*wire.RunClock](c.take())
	if len(rc) != 1 || rc[0].MinuteMs != 60000 || rc[0].Hours != 7 || rc[0].Minutes != 30 {
		t.Fatalf("got %+v, want RunClock 07:30 at 60000", rc)
	}
	f.advance(ResyncInterval + 17*time.Second) // 10:01:02 UTC
	rc = only[*wire.RunClock](c.take())
	if len(rc) != 1 || rc[0].Hours != 7 || rc[0].Minutes != 31 {
		t.Fatalf("resync got %+v, want the exact real time 07:31", rc)
	}
	f.advance(ResyncInterval) // 10:01:47
	f.advance(ResyncInterval) // 10:02:32: the resync carries 07:32
	rc = only[*wire.RunClock](c.take())
	if len(rc) != 2 || rc[1].Minutes != 32 {
		t.Fatalf("got %+v, want two resyncs, the last at 07:32", rc)
	}
	h, _ := hello(t, f.w)
	if h.ClockRunning != 1 || h.MinuteMs != 60000 || h.Hours != 7 || h.Minutes != 32 {
		t.Fatalf("got hello %+v, want running real time 07:32", h)
	}
}

func TestPerPlayerTimeAndWeatherNotStored(t *testing.T) {
	f := newFixture(t, func(c *config.Config) { c.Clock.Mode, c.Clock.MinuteMs = "running", 1000 })
	p, c := f.join()
	other, oc := f.join()
	_ = other
	c.take()
	oc.take()
	if err := f.w.SetPlayerTime(p, 3, 0); err != nil {
		t.Fatal(err)
	}
	if err := f.w.SetPlayerWeather(p, 22); err != nil {
		t.Fatal(err)
	}
	out := c.take()
	if len(only[*wire.SetTime](out)) != 1 || len(only[*wire.SetWeather](out)) != 1 || len(oc.take()) != 0 {
		t.Fatalf("got %+v, want SetTime and SetWeather to the one player only", out)
	}
	if hh, _, running, _ := f.w.Clock(); !running || hh != 12 {
		t.Fatalf("the per-player time changed the global clock: %d running %v", hh, running)
	}
	if f.w.Weather() != 1 {
		t.Fatalf("the per-player weather was stored: %d", f.w.Weather())
	}
	// The periodic resync resets the player's clock to the global one.
	f.advance(ResyncInterval)
	if rc := only[*wire.RunClock](c.take()); len(rc) != 1 || rc[0].Hours != 12 || rc[0].Minutes != 45 {
		t.Fatalf("got %+v, want the resync at 12:45 to reset the player", rc)
	}
	wantArgErr(t, f.w.SetPlayerWeather(p, 23), "set_player_weather", "weather")
	wantArgErr(t, f.w.SetPlayerTime(p, 24, 0), "set_player_time", "time")
	if err := f.w.SetWeather(9); err != nil {
		t.Fatal(err)
	}
	if sw := only[*wire.SetWeather](oc.take()); len(sw) != 1 || sw[0].Weather != 9 {
		t.Fatalf("got %+v, want the server weather to everyone", sw)
	}
	if h, _ := hello(t, f.w); h.Weather != 9 {
		t.Fatalf("got hello weather %d, want 9", h.Weather)
	}
}

func TestGarageDoors(t *testing.T) {
	f := newFixture(t, nil)
	_, a := hello(t, f.w)
	_, b := hello(t, f.w)
	if err := f.w.SetGarageOpen(49, true); err != nil {
		t.Fatal(err)
	}
	if err := f.w.SetGarageOpen(3, true); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*testConn{a, b} {
		out := c.take()
		gd := only[*wire.GarageDoors](out)
		if len(gd) != 2 || out[1].class != lane.Critical || gd[1].Open != 1<<49|1<<3 {
			t.Fatalf("got %+v, want two critical GarageDoors, the last with bits 3 and 49", out)
		}
	}
	if err := f.w.SetGarageOpen(3, true); err != nil { // no change
		t.Fatal(err)
	}
	if err := f.w.SetGarageOpen(4, false); err != nil { // no change
		t.Fatal(err)
	}
	if len(a.take()) != 0 {
		t.Fatal("a repeated door state was sent")
	}
	h, _ := hello(t, f.w)
	if h.GarageOpen != 1<<49|1<<3 {
		t.Fatalf("got hello mask %#x, want bits 3 and 49", h.GarageOpen)
	}
	if err := f.w.SetGarageOpen(49, false); err != nil {
		t.Fatal(err)
	}
	if gd := only[*wire.GarageDoors](a.take()); len(gd) != 1 || gd[0].Open != 1<<3 || !f.w.GarageOpen(3) || f.w.GarageOpen(49) {
		t.Fatalf("got %+v, want the mask with bit 3 only", gd)
	}
	wantArgErr(t, f.w.SetGarageOpen(50, true), "set_garage_open", "id")
	wantArgErr(t, f.w.SetGarageOpen(-1, true), "set_garage_open", "id")
}

func TestPlayerTimeHoldsWhileFrozen(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	if err := f.w.SetPlayerTime(p, 0, 30); err != nil {
		t.Fatal(err)
	}
	c.take()
	f.advance(3 * ResyncInterval)
	if n := len(c.take()); n != 0 {
		t.Fatalf("a frozen clock sent %d packets: the per-player time must hold", n)
	}
}

func TestRealClockFromConfig(t *testing.T) {
	f := newFixture(t, func(c *config.Config) { c.Clock.Mode, c.Clock.UTCOffsetM = "real", 330 }) // UTC+5:30
	h, c := hello(t, f.w)
	if h.ClockRunning != 1 || h.MinuteMs != 60000 || h.Hours != 15 || h.Minutes != 30 {
		t.Fatalf("got hello %d %d:%d %d, want running 15:30 at 60000", h.ClockRunning, h.Hours, h.Minutes, h.MinuteMs)
	}
	if rc := only[*wire.RunClock](c.take()); len(rc) != 1 || rc[0].Hours != 15 || rc[0].Minutes != 30 {
		t.Fatalf("got %+v, want RunClock 15:30 on connect", rc)
	}
}
