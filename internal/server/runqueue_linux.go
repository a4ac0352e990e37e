package server

import (
	"strconv"
	"strings"
	"syscall"
	"time"
)

// runqWait returns how long the calling OS thread has waited in the
// kernel's run queue (runnable, not running) since it started, and true:
// the second field of /proc/thread-self/schedstat. A tick's wall time less
// its CPU time less this wait is the time its goroutine was blocked or
// descheduled by the Go scheduler.
func runqWait() (time.Duration, bool) {
	var buf [96]byte
	fd, err := syscall.Open("/proc/thread-self/schedstat", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0, false
	}
	n, err := syscall.Read(fd, buf[:])
	syscall.Close(fd)
	if err != nil || n <= 0 {
		return 0, false
	}
	fields := strings.Fields(string(buf[:n]))
	if len(fields) < 2 {
		return 0, false
	}
	ns, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil {
		return 0, false
	}
	return time.Duration(ns), true
}
