package wire

import (
	"math"
	"testing"
)

func validRunClock() Packet {
	return &RunClock{EventID: 12, Hours: 6, Minutes: 15, MinuteMs: GameMinuteMs}
}

func TestRunClockExample(t *testing.T) {
	checkExample(t, "run_clock.bin", validRunClock())
	checkTruncated(t, validRunClock().Append(nil), func() Packet { return new(RunClock) })
}

func TestRunClockRules(t *testing.T) {
	set := func(f func(q *RunClock)) func(Packet) { return func(p Packet) { f(p.(*RunClock)) } }
	cases := []ruleCase{
		{"hours 0", set(func(q *RunClock) { q.Hours = 0 }), ""},
		{"hours 23", set(func(q *RunClock) { q.Hours = 23 }), ""},
		{"hours 24", set(func(q *RunClock) { q.Hours = 24 }), "hours"},
		{"hours 255", set(func(q *RunClock) { q.Hours = 255 }), "hours"},
		{"minutes 0", set(func(q *RunClock) { q.Minutes = 0 }), ""},
		{"minutes 59", set(func(q *RunClock) { q.Minutes = 59 }), ""},
		{"minutes 60", set(func(q *RunClock) { q.Minutes = 60 }), "minutes"},
		{"minute_ms 10", set(func(q *RunClock) { q.MinuteMs = 10 }), ""},
		{"minute_ms 9", set(func(q *RunClock) { q.MinuteMs = 9 }), "minute_ms"},
		{"minute_ms 0", set(func(q *RunClock) { q.MinuteMs = 0 }), "minute_ms"},
		{"minute_ms 60000 (real time)", set(func(q *RunClock) { q.MinuteMs = RealMinuteMs }), ""},
		{"minute_ms 3600000", set(func(q *RunClock) { q.MinuteMs = 3_600_000 }), ""},
		{"minute_ms 3600001", set(func(q *RunClock) { q.MinuteMs = 3_600_001 }), "minute_ms"},
		{"minute_ms max", set(func(q *RunClock) { q.MinuteMs = math.MaxUint32 }), "minute_ms"},
	}
	checkRules(t, "server", validRunClock, send, cases)
	checkRules(t, "client", validRunClock, recv, cases)
}

func FuzzRunClock(f *testing.F) {
	f.Add(validRunClock().Append(nil))
	f.Add([]byte{IDRunClock, 1, 0, 0, 0, 23, 59, 9, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(RunClock) }) })
}

func BenchmarkRunClock(b *testing.B) {
	benchCodec(b, validRunClock(), func() Packet { return new(RunClock) })
}
