package threadcpu

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is CLOCK_THREAD_CPUTIME_ID: nanosecond resolution
// (getrusage's RUSAGE_THREAD counts in scheduler ticks, 4 ms steps on the
// load-run VM).
const clockThreadCPUTime = 3

// Now returns the CPU time the calling thread has used, and false where it
// cannot be read.
func Now() (time.Duration, bool) {
	var ts syscall.Timespec
	if _, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// ID returns the calling thread's id: a span whose ends have the same id
// ran on one thread, and the difference of Now is its CPU time.
func ID() int { return syscall.Gettid() }
