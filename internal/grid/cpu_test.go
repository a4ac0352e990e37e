package grid

import (
	"time"

	"dlmp/internal/threadcpu"
)

// threadCPU returns the CPU time used by the calling OS thread: on a loaded
// machine it measures the work, where wall time also counts the waiting.
// The caller locks itself to its thread (runtime.LockOSThread). 0 where the
// thread's clock is not read (off Linux).
func threadCPU() time.Duration {
	c, _ := threadcpu.Now()
	return c
}
