package transport

import (
	"bytes"
	"os"
	"strconv"
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

// stealMs is the machine's steal time so far (the "cpu" line of
// /proc/stat, its eighth value), in milliseconds; 0 when unknown.
func stealMs() int64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	f := bytes.Fields(line)
	if len(f) < 9 {
		return 0
	}
	v, _ := strconv.ParseInt(string(f[8]), 10, 64)
	return v * 1000 / 100 // USER_HZ
}
