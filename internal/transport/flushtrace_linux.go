package transport

import (
	"bytes"
	"os"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// threadUsage is getrusage(RUSAGE_THREAD) of the calling thread.
func threadUsage() usage {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_THREAD, &ru) != nil {
		return usage{}
	}
	return usage{
		cpu:    time.Duration(ru.Utime.Nano() + ru.Stime.Nano()),
		minflt: ru.Minflt, nivcsw: ru.Nivcsw, nvcsw: ru.Nvcsw,
	}
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
