package threadcpu

import (
	"runtime"
	"testing"
	"time"
)

func TestNowCountsWorkNotSleep(t *testing.T) {
	if runtime.GOOS != "linux" {
		if _, ok := Now(); ok {
			t.Fatal("Now reported a thread clock off Linux")
		}
		return
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	id := ID()
	c0, ok := Now()
	if !ok {
		t.Fatal("Now: thread clock not read on Linux")
	}
	time.Sleep(50 * time.Millisecond)
	c1, _ := Now()
	// Spin until the clock has counted 20 ms of work (a loaded machine
	// gives this thread a share of a core: the wall time may be longer).
	x, c2 := 0, c1
	for deadline := time.Now().Add(5 * time.Second); c2-c1 < 20*time.Millisecond && time.Now().Before(deadline); x++ {
		c2, _ = Now()
	}
	if slept := c1 - c0; slept > 20*time.Millisecond {
		t.Errorf("50 ms asleep counted %v of CPU, want almost none", slept)
	}
	if busy := c2 - c1; busy < 20*time.Millisecond {
		t.Errorf("5 s of spinning counted %v of CPU (%d loops), want 20 ms", busy, x)
	}
	if ID() != id {
		t.Errorf("ID changed on a locked thread: %d, then %d", id, ID())
	}
}
