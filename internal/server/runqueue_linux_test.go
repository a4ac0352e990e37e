package server

import (
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// pinToCPU0 pins the calling (locked) thread to the first CPU it may use
// and returns the CPUs it could use before.
func pinToCPU0() (old unix.CPUSet, err error) {
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		return old, err
	}
	for c := range len(old) * 64 {
		if old.IsSet(c) {
			var one unix.CPUSet
			one.Set(c)
			return old, setAffinity(&one)
		}
	}
	return old, unix.EINVAL
}

func setAffinity(m *unix.CPUSet) error { return unix.SchedSetaffinity(0, m) }

// TestRunqWaitCountsWaitsForTheCPU: this thread and two busy ones pinned to
// one CPU: this one runs about a third of the time and waits in the run
// queue the rest, so its CPU time and its wait add up to the wall time
// (the first field of schedstat, the time run, would not).
func TestRunqWaitCountsWaitsForTheCPU(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 3 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	old, err := pinToCPU0()
	if err != nil {
		t.Fatalf("pinning to one CPU: %v", err)
	}
	defer setAffinity(&old) // the thread goes back to the pool as it was
	const busy = 150 * time.Millisecond
	ready, done := make(chan bool), make(chan bool, 2)
	for range 2 {
		go func() {
			runtime.LockOSThread() // the thread ends with the goroutine, pinned
			_, err := pinToCPU0()
			ready <- err == nil
			if err != nil {
				done <- true
				return
			}
			for start := time.Now(); time.Since(start) < busy; {
			}
			done <- true
		}()
		if !<-ready {
			t.Fatal("pinning a busy thread to one CPU failed")
		}
	}
	_, c0, ok := threadCPU()
	w0, ok2 := runqWait()
	if !ok || !ok2 {
		t.Fatal("threadCPU or runqWait: not measured on linux")
	}
	start := time.Now()
	for time.Since(start) < busy/2 {
	}
	_, c1, _ := threadCPU()
	w1, _ := runqWait()
	wall := time.Since(start)
	<-done
	<-done
	cpu, wait := c1-c0, w1-w0
	if wait < wall/4 {
		t.Errorf("got a run-queue wait of %v over %v sharing one CPU with two busy threads (CPU %v), want at least a quarter", wait, wall, cpu)
	}
	if sum := cpu + wait; sum < wall*8/10 || sum > wall*12/10 {
		t.Errorf("got CPU %v + run-queue wait %v = %v, want about the wall time %v", cpu, wait, sum, wall)
	}
}
