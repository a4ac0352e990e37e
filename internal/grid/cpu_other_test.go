//go:build !linux

package grid

import "time"

// threadCPU is not measured outside Linux.
func threadCPU() time.Duration { return 0 }
