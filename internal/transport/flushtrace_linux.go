package transport

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadUsage is the calling thread's CPU time (its clock: getrusage's
// is counted in scheduler ticks) and getrusage(RUSAGE_THREAD)'s faults
// and context switches.
func threadUsage() usage {
	var u usage
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) == nil {
		u.cpu = time.Duration(ts.Nano())
	}
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_THREAD, &ru) == nil {
		u.minflt, u.nivcsw, u.nvcsw = ru.Minflt, ru.Nivcsw, ru.Nvcsw
	}
	return u
}
