package grid

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time used by the calling OS thread: on a loaded
// machine it measures the work, where wall time also counts the waiting.
// The caller locks itself to its thread (runtime.LockOSThread).
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
