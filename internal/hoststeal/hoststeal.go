// Package hoststeal reads the host's steal time: how long the hypervisor
// gave this machine's CPUs to its other guests, the aggregate "cpu" line
// of /proc/stat (decisions 0426, 0427). The flush trace and
// scripts/hiccup read it around what they measure.
package hoststeal

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// userHz is the unit of /proc/stat's times on Linux (USER_HZ).
const userHz = 100

// Total returns the steal time of all CPUs since boot, and false where
// there is none to read (no /proc/stat: off Linux).
func Total() (time.Duration, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	return Parse(string(b))
}

// Parse reads the steal field (the eighth number) of the aggregate "cpu"
// line of /proc/stat's text.
func Parse(stat string) (time.Duration, bool) {
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
