package rtthread

import (
	"errors"
	"runtime"
	"syscall"
	"testing"
)

// TestLockRealTime: the locked thread runs as SCHED_FIFO until the unlock,
// which puts it back in the ordinary class; where the process may not (no
// CAP_SYS_NICE) it gets EPERM and the thread is unchanged.
func TestLockRealTime(t *testing.T) {
	type result struct {
		tid            int
		err            error
		during, after  int
		byTid          int
		duringE, aftrE error
		byTidE         error
	}
	res := make(chan result)
	go func() {
		var r result
		var unlock func()
		r.tid, unlock, r.err = Lock(5)
		r.during, r.duringE = Policy(0)
		if r.tid != 0 {
			r.byTid, r.byTidE = Policy(r.tid)
		}
		runtime.LockOSThread() // stay on the thread to see it after the unlock
		unlock()
		r.after, r.aftrE = Policy(0)
		runtime.UnlockOSThread()
		res <- r
	}()
	r := <-res
	if r.duringE != nil || r.aftrE != nil || r.byTidE != nil {
		t.Fatalf("sched_getattr: %v, %v, %v", r.duringE, r.aftrE, r.byTidE)
	}
	if r.after != Other {
		t.Errorf("got policy %d after the unlock, want %d (SCHED_OTHER)", r.after, Other)
	}
	switch {
	case errors.Is(r.err, syscall.EPERM):
		if r.during != Other {
			t.Errorf("got policy %d after a refused Lock, want %d", r.during, Other)
		}
	case r.err != nil:
		t.Fatalf("Lock: %v", r.err)
	default:
		if r.during != FIFO || r.tid == 0 || r.byTid != FIFO {
			t.Errorf("got policy %d (%d by its id) on thread %d, want %d (SCHED_FIFO)", r.during, r.byTid, r.tid, FIFO)
		}
	}
}

// TestLockRefusesABadPriority: a priority outside 1..99 is the kernel's
// EINVAL, and the thread stays in the ordinary class.
func TestLockRefusesABadPriority(t *testing.T) {
	errc := make(chan error)
	go func() {
		_, _, err := Lock(100)
		p, perr := Policy(0)
		if perr == nil && p != Other {
			perr = errors.New("thread left in another class")
		}
		errc <- errors.Join(err, perr)
	}()
	if err := <-errc; !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.EPERM) {
		t.Fatalf("Lock(100): got %v, want EINVAL (or EPERM without CAP_SYS_NICE)", err)
	}
}
