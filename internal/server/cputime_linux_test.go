package server

import (
	"runtime"
	"testing"
	"time"
)

func TestThreadCPUCountsWork(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	_, c0, ok := threadCPU()
	if !ok {
		t.Fatal("threadCPU: not measured on linux")
	}
	start := time.Now()
	x := 0
	for time.Since(start) < 20*time.Millisecond {
		x++
	}
	wall := time.Since(start)
	_, c1, _ := threadCPU()
	if d := c1 - c0; d <= 0 || d > wall+time.Millisecond {
		t.Errorf("got %v of thread CPU over %v of busy wall time (%d spins), want above 0 and at most the wall time", d, wall, x)
	}
}
