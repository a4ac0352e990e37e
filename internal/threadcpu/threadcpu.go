// Package threadcpu reads the CPU time the calling OS thread has used: the
// work a tick or a benchmark's op did, without the time it waited for a
// core. The caller keeps its goroutine on one thread for the span it
// measures (runtime.LockOSThread, or a span that does not block and checks
// [ID] at both ends).
package threadcpu

import "time"

// Spent is Now without the flag, for benchmarks: 0 where the thread's
// clock is not read (off Linux), so the figures they report are 0 there.
func Spent() time.Duration {
	c, _ := Now()
	return c
}
