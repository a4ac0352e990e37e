package server

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is CLOCK_THREAD_CPUTIME_ID.
const clockThreadCPUTime = 3

// threadCPU returns the calling OS thread's id and the CPU time it has
// used, and true. A tick whose goroutine ends on the thread it began on
// (it does not block, so it rarely moves) used the difference: the work,
// without the waits for a CPU. Run does not lock its goroutine to a thread:
// a locked goroutine's every wake-up costs a thread handoff.
func threadCPU() (tid int, cpu time.Duration, ok bool) {
	cpu, ok = threadCPUTime()
	if !ok {
		return 0, 0, false
	}
	return syscall.Gettid(), cpu, true
}

// threadCPUTime returns the CPU time the calling OS thread has used.
func threadCPUTime() (time.Duration, bool) {
	var ts syscall.Timespec
	if _, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
