package server

import "golang.org/x/sys/unix"

// threadFaults returns the calling OS thread's minor and major page faults
// since it started, and true: getrusage(RUSAGE_THREAD). A tick that stays
// on its thread (the phases check it) faulted the difference of two reads:
// a minor fault is a page the thread touched first (a fresh allocation's
// memory), a major one a page read from disk.
func threadFaults() (minor, major uint64, ok bool) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		return 0, 0, false
	}
	return uint64(ru.Minflt), uint64(ru.Majflt), true
}
