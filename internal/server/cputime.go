package server

import (
	"time"

	"dlmp/internal/threadcpu"
)

// threadCPU returns the calling OS thread's id and the CPU time it has
// used, and true. A tick whose goroutine ends on the thread it began on
// (it does not block, so it rarely moves) used the difference: the work,
// without the waits for a CPU. Run does not lock its goroutine to a thread:
// a locked goroutine's every wake-up costs a thread handoff.
func threadCPU() (tid int, cpu time.Duration, ok bool) {
	cpu, ok = threadcpu.Now()
	if !ok {
		return 0, 0, false
	}
	return threadcpu.ID(), cpu, true
}
