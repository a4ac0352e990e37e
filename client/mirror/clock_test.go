package mirror

import (
	"testing"

	"dlmp/internal/wire"
)

// clockStep applies pkt (if any) at ms, then checks the time of day in
// minutes and the clock's rate factor.
type clockStep struct {
	ms   int
	pkt  wire.Packet
	want float64 // minutes since midnight
	rate float64
}

func hm(h int, m float64) float64 { return float64(h*60) + m }

func run(h, m uint8, minuteMs uint32) *wire.RunClock {
	return &wire.RunClock{Hours: h, Minutes: m, MinuteMs: minuteMs}
}

func TestClock(t *testing.T) {
	running := func(h, m uint8, minuteMs uint32) *wire.ServerHello {
		hello := frozenHello()
		hello.ClockRunning, hello.Hours, hello.Minutes, hello.MinuteMs = 1, h, m, minuteMs
		return hello
	}
	tests := []struct {
		name  string
		hello *wire.ServerHello
		steps []clockStep
	}{
		{"a frozen hello holds its time", frozenHello(), []clockStep{
			{0, nil, hm(12, 30), 0},
			{600_000, nil, hm(12, 30), 0},
		}},
		{"a running hello runs at minute_ms", running(6, 0, 1000), []clockStep{
			{0, nil, hm(6, 0), 1},
			{90_500, nil, hm(7, 30) + 0.5, 1},
		}},
		{"SetTime holds a running clock", running(6, 0, 1000), []clockStep{
			{5_000, &wire.SetTime{Hours: 20, Minutes: 15}, hm(20, 15), 0},
			{65_000, nil, hm(20, 15), 0},
		}},
		{"RunClock after SetTime establishes: jumps and sets the rate", frozenHello(), []clockStep{
			{1_000, run(10, 0, 1000), hm(10, 0), 1},
			{4_000, nil, hm(10, 3), 1},
		}},
		{"a new minute_ms establishes even with no drift", running(10, 0, 1000), []clockStep{
			{1_500, run(10, 1, 500), hm(10, 1), 1},
			{2_500, nil, hm(10, 3), 1},
		}},
		{"a resync within the server's minute changes nothing", running(10, 0, 1000), []clockStep{
			{5_400, run(10, 5, 1000), hm(10, 5) + 0.4, 1},
			{10_400, nil, hm(10, 10) + 0.4, 1},
		}},
		// Client 10:00.0, server 10:01: 1 minute behind, corrected over
		// max(10 s, 2 × 1 × 1 s) = 10 s at 1 + 1/10 of the rate.
		{"a small drift behind speeds the clock up for the window", running(10, 0, 1000), []clockStep{
			{0, run(10, 1, 1000), hm(10, 0), 1.1},
			{5_000, nil, hm(10, 5.5), 1.1},
			{10_000, nil, hm(10, 11), 1},
			{20_000, nil, hm(10, 21), 1},
		}},
		// Client 10:03.5, server 10:01: 1.5 past the end of the server's
		// minute, lost over 10 s at 1 − 1.5/10 of the rate.
		{"a small drift ahead slows the clock for the window", running(10, 0, 1000), []clockStep{
			{3_500, run(10, 1, 1000), hm(10, 3) + 0.5, 0.85},
			{13_500, nil, hm(10, 12), 1},
		}},
		{"a drift of exactly 2 minutes is still small", running(10, 0, 1000), []clockStep{
			{0, run(10, 2, 1000), hm(10, 0), 1.2},
			{10_000, nil, hm(10, 12), 1},
		}},
		{"a large drift jumps", running(10, 0, 1000), []clockStep{
			{0, run(10, 3, 1000), hm(10, 3), 1},
			{1_000, nil, hm(10, 4), 1},
		}},
		{"a large drift backward jumps back", running(10, 0, 1000), []clockStep{
			{300_000, run(10, 1, 1000), hm(10, 1), 1},
		}},
		{"a drift across midnight goes the short way", running(23, 59, 1000), []clockStep{
			{500, run(0, 0, 1000), hm(23, 59) + 0.5, 1.05},
			{10_500, nil, hm(0, 10), 1},
		}},
		{"a drift ahead across midnight goes the short way", running(0, 0, 1000), []clockStep{
			{500, run(23, 58, 1000), 0.5, 0.85},
			{10_500, nil, hm(0, 9), 1},
		}},
		// Real time: 2 minutes behind at 60 s per minute needs a window of
		// 2 × 2 × 60 s = 240 s so the rate stays at 1.5.
		{"a slow clock stretches the window", running(10, 0, 60_000), []clockStep{
			{0, run(10, 2, 60_000), hm(10, 0), 1.5},
			{120_000, nil, hm(10, 3), 1.5},
			{240_000, nil, hm(10, 6), 1},
		}},
		{"a resync ends an earlier correction", running(10, 0, 1000), []clockStep{
			{0, run(10, 1, 1000), hm(10, 0), 1.1},
			{5_000, run(10, 5, 1000), hm(10, 5.5), 1},
			{15_000, nil, hm(10, 15.5), 1},
		}},
		{"SetTime after RunClock holds again", running(10, 0, 1000), []clockStep{
			{1_000, &wire.SetTime{Hours: 3, Minutes: 4}, hm(3, 4), 0},
			{2_000, run(3, 4, 1000), hm(3, 4), 1},
			{3_000, nil, hm(3, 5), 1},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMirror(t, tt.hello)
			for i, s := range tt.steps {
				if s.pkt != nil {
					apply(t, m, s.pkt, at(s.ms))
				} else {
					m.Advance(at(s.ms))
				}
				if got := m.Time().InMinutes(); !near(got, s.want) && !nearFloat(got, s.want) {
					t.Errorf("step %d at %d ms: time %v (%.6f min), want %.6f min", i, s.ms, m.Time(), got, s.want)
				}
				if got := m.ClockRate(); !nearFloat(got, s.rate) {
					t.Errorf("step %d at %d ms: rate %v, want %v", i, s.ms, got, s.rate)
				}
			}
		})
	}
}

func nearFloat(a, b float64) bool { return a-b < 1e-6 && b-a < 1e-6 }

func TestGameTimeFields(t *testing.T) {
	hello := frozenHello()
	hello.ClockRunning, hello.Hours, hello.Minutes, hello.MinuteMs = 1, 23, 59, 1000
	m := newMirror(t, hello)
	m.Advance(at(1_250))
	got := m.Time()
	if got.Hours != 0 || got.Minutes != 0 || !nearFloat(got.Fraction, 0.25) {
		t.Errorf("Time() = %+v, want 00:00 and a fraction of 0.25", got)
	}
	if running, ms := m.ClockRunning(); !running || ms != 1000 {
		t.Errorf("ClockRunning() = %v, %d, want true, 1000", running, ms)
	}
}
