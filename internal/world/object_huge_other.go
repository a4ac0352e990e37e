//go:build !linux

package world

// adviseHuge does nothing where madvise's MADV_HUGEPAGE is not known.
func adviseHuge([]Object) {}
