//go:build !linux

package server

import "time"

// threadCPU is not measured here: the summary has no tick CPU time.
func threadCPU() (time.Duration, bool) { return 0, false }
