package main

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// userHz is the unit of /proc/stat's times on Linux (USER_HZ).
const userHz = 100

// steal returns /proc/stat's steal time of all CPUs, false where there is
// none to read.
func steal() (time.Duration, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	return parseSteal(string(b))
}

// parseSteal reads the steal field (the eighth number) of the aggregate
// "cpu" line of /proc/stat's text.
func parseSteal(stat string) (time.Duration, bool) {
	for line := range strings.Lines(stat) {
		f := strings.Fields(line)
		if len(f) < 9 || f[0] != "cpu" {
			continue
		}
		n, err := strconv.ParseUint(f[8], 10, 64)
		if err != nil {
			return 0, false
		}
		return time.Duration(n) * time.Second / userHz, true
	}
	return 0, false
}
