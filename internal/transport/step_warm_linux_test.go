package transport

import "testing"

// BenchmarkFlushWarm is BenchmarkCrossingFlush's cold ticks with the
// flush's warm-ahead (warmSteps) on the odd ticks only: flush-µs/odd-tick
// against flush-µs/even-tick, side by side (decision 0401).
//
//	go test ./internal/transport -run '^$' -bench FlushWarm -benchtime 100x
func BenchmarkFlushWarm(b *testing.B) {
	for _, v := range []struct {
		name string
		run  crossingRun
	}{
		{"calm-cold", crossingRun{ballast: 128 << 20, walk: 16 << 20}},
		{"broadcast-cold", crossingRun{trickle: 1, small: 19, ballast: 128 << 20, walk: 16 << 20}},
		{"crossing-cold", crossingRun{bursts: 50, trickle: 2, ballast: 128 << 20, walk: 16 << 20}},
	} {
		b.Run(v.name, func(b *testing.B) {
			v.run.alternate = func(s *Server, odd bool) { s.tick.noWarm = !odd }
			crossingFlush(b, v.run)
		})
	}
}
