//go:build !linux

package world

import "time"

// threadClock is threadCPU where the thread's CPU clock is not read.
func threadClock() time.Duration { return threadCPU() }
