package server

import (
	"runtime"
)

// Prefault grows the Go heap by n bytes at once and touches every page of
// it, then lets it go: the heap keeps the pages, already mapped, and later
// allocations (a crowd's buffers growing to their peak in a tick) take
// them without a page fault. Returned pages stay mapped as long as the
// runtime frees them with MADV_FREE (cmd/dlmp: //go:debug madvdontneed=0)
// and the machine has memory to spare.
func Prefault(n int) {
	if n <= 0 {
		return
	}
	b := make([]byte, n)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	runtime.KeepAlive(b)
	b = nil
	runtime.GC()
}
