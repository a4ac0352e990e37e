//go:build !linux

package server

import "time"

// runqWait is not measured outside linux.
func runqWait() (time.Duration, bool) { return 0, false }
