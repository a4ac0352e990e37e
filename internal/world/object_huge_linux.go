package world

import (
	"syscall"
	"unsafe"
)

// adviseHuge asks the kernel to back objs with huge pages (MADV_HUGEPAGE):
// with transparent huge pages set to madvise (the usual default), the Go
// heap is in 4 KiB pages, and a show's object, one of a million in a
// table of 128 MB, costs a TLB miss and its page walk (decision 0383).
// objs is fresh from make, so its pages are not yet faulted in; the
// advice is a hint, and its failure changes nothing but speed.
func adviseHuge(objs []Object) {
	if len(objs) == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&objs[0])), uintptr(len(objs))*unsafe.Sizeof(objs[0]))
	if syscall.Madvise(b, syscall.MADV_HUGEPAGE) == nil {
		_ = syscall.Madvise(b, madvCollapse)
	}
}

// madvCollapse is MADV_COLLAPSE (Linux 6.1), not in package syscall.
const madvCollapse = 0x19
