package server

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// Touching fresh anonymous pages faults once a page on the thread that
// touches them; reading the counters again without touching adds none.
func TestThreadFaultsCountFreshPages(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const pages = 64
	size := pages * unix.Getpagesize()
	mem, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(mem)
	min0, _, ok := threadFaults()
	if !ok {
		t.Fatal("threadFaults: not measured on linux")
	}
	for i := 0; i < size; i += unix.Getpagesize() {
		mem[i] = 1
	}
	min1, _, _ := threadFaults()
	if got := min1 - min0; got < pages {
		t.Errorf("got %d minor faults for %d fresh pages touched, want at least %d", got, pages, pages)
	}
	for i := 0; i < size; i += unix.Getpagesize() {
		mem[i] = 2 // the pages are mapped now
	}
	if min2, _, _ := threadFaults(); min2-min1 > pages/4 {
		t.Errorf("got %d minor faults touching the same %d pages again, want few", min2-min1, pages)
	}
}
