//go:build !linux

package server

import "time"

// threadCPU is not measured here: the summary has no tick CPU time.
func threadCPU() (tid int, cpu time.Duration, ok bool) { return 0, 0, false }

// threadCPUTime is not measured here.
func threadCPUTime() (time.Duration, bool) { return 0, false }
