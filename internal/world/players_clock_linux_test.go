package world

import (
	"syscall"
	"time"
	"unsafe"
)

// threadClock is the calling thread's CPU time by CLOCK_THREAD_CPUTIME_ID,
// to the nanosecond (getrusage, threadCPU's source, counts in 4 ms steps on
// the load-run VM: too coarse for one tick).
func threadClock() time.Duration {
	var ts syscall.Timespec
	if _, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, 3 /* CLOCK_THREAD_CPUTIME_ID */, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
