//go:build !linux

package server

// threadFaults is not measured outside linux.
func threadFaults() (minor, major uint64, ok bool) { return 0, 0, false }
