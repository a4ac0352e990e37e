package world

import (
	"syscall"
	"time"
	"unsafe"
)

// threadClock returns the calling thread's CPU clock
// (CLOCK_THREAD_CPUTIME_ID): as threadCPU, at nanosecond resolution, for
// benchmarks whose ops take less than getrusage's steps.
func threadClock() time.Duration {
	var ts syscall.Timespec
	const threadCPUClock = 3 // CLOCK_THREAD_CPUTIME_ID
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, threadCPUClock, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return threadCPU()
	}
	return time.Duration(ts.Nano())
}
