//go:build !linux

package world

import "time"

// benchCPU is not measured outside Linux.
func benchCPU() time.Duration { return 0 }
