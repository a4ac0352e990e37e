package world

import (
	"bufio"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// hugeHeap marks the process's large anonymous read-write mappings
// MADV_HUGEPAGE and collapses them (MADV_COLLAPSE): a HACK of session 15
// to measure what 2 MB pages do for a tick.
func hugeHeap() (n int, err error) {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 5 || fs[1] != "rw-p" || len(fs) > 5 && fs[5] != "" {
			continue
		}
		ab := strings.SplitN(fs[0], "-", 2)
		a, _ := strconv.ParseUint(ab[0], 16, 64)
		b, _ := strconv.ParseUint(ab[1], 16, 64)
		const huge = 2 << 20
		a = (a + huge - 1) &^ (huge - 1)
		b &^= huge - 1
		if b <= a {
			continue
		}
		if _, _, e := unix.Syscall(unix.SYS_MADVISE, uintptr(a), uintptr(b-a), unix.MADV_HUGEPAGE); e != 0 {
			return n, e
		}
		unix.Syscall(unix.SYS_MADVISE, uintptr(a), uintptr(b-a), 25 /* MADV_COLLAPSE */)
		n += int(b-a) >> 21
	}
	return n, sc.Err()
}
