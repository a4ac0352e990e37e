package transport

import (
	"os"
	"runtime"
	"strconv"

	"golang.org/x/sys/unix"
)

// HACK (session 16, not kept): lockFIFO locks the calling goroutine to its
// thread and puts that thread in SCHED_FIFO at the priority the env var
// names, if set.
func lockFIFO(env string) {
	p, err := strconv.Atoi(os.Getenv(env))
	if err != nil || p <= 0 {
		return
	}
	runtime.LockOSThread()
	unix.SchedSetAttr(0, &unix.SchedAttr{Size: unix.SizeofSchedAttr, Policy: unix.SCHED_FIFO, Priority: uint32(p)}, 0)
}
