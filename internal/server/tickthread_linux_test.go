package server

import (
	"errors"
	"runtime"
	"syscall"
	"testing"
)

// TestLockTickThreadRealTime: the tick's thread runs as SCHED_FIFO until
// the unlock, which puts it back in the ordinary class; where the process
// may not (no CAP_SYS_NICE) it gets EPERM and the thread is unchanged.
func TestLockTickThreadRealTime(t *testing.T) {
	type result struct {
		tid            int
		err            error
		during, after  int
		duringE, aftrE error
	}
	res := make(chan result)
	go func() {
		var r result
		var unlock func()
		r.tid, unlock, r.err = lockTickThread(5)
		r.during, r.duringE = threadPolicy()
		runtime.LockOSThread() // stay on the thread to see it after the unlock
		unlock()
		r.after, r.aftrE = threadPolicy()
		runtime.UnlockOSThread()
		res <- r
	}()
	r := <-res
	if r.duringE != nil || r.aftrE != nil {
		t.Fatalf("sched_getscheduler: %v, %v", r.duringE, r.aftrE)
	}
	if r.after != schedOther {
		t.Errorf("got policy %d after the unlock, want %d (SCHED_OTHER)", r.after, schedOther)
	}
	switch {
	case errors.Is(r.err, syscall.EPERM):
		if r.during != schedOther {
			t.Errorf("got policy %d after a refused lockTickThread, want %d", r.during, schedOther)
		}
	case r.err != nil:
		t.Fatalf("lockTickThread: %v", r.err)
	default:
		if r.during != schedFIFO || r.tid == 0 {
			t.Errorf("got policy %d on thread %d, want %d (SCHED_FIFO)", r.during, r.tid, schedFIFO)
		}
	}
}
