package rtthread

import (
	"errors"
	"log/slog"
	"runtime"
	"strings"
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

// TestLockLogged: at priority 0 nothing is locked or logged; above it the
// log says "<name> thread real-time" with the priority under "<name>_fifo"
// and the thread is SCHED_FIFO, or, refused (no CAP_SYS_NICE), it warns
// that the thread stays in the ordinary class.
func TestLockLogged(t *testing.T) {
	type result struct {
		tid, policy int
		log         string
	}
	run := func(prio int) result {
		res := make(chan result)
		go func() {
			var b strings.Builder
			tid, unlock := LockLogged(slog.New(slog.NewTextHandler(&b, nil)), "writer", prio)
			p, _ := Policy(0)
			unlock()
			res <- result{tid, p, b.String()}
		}()
		return <-res
	}
	if r := run(0); r.tid != 0 || r.policy != Other || r.log != "" {
		t.Fatalf("priority 0: tid %d, policy %d, log %q; want nothing done", r.tid, r.policy, r.log)
	}
	r := run(5)
	switch {
	case r.tid != 0:
		if r.policy != FIFO || !strings.Contains(r.log, "writer thread real-time") || !strings.Contains(r.log, "writer_fifo=5") {
			t.Fatalf("priority 5: policy %d, log %q; want SCHED_FIFO and the real-time line", r.policy, r.log)
		}
	case !strings.Contains(r.log, "the writer thread stays in the ordinary class") || r.policy != Other:
		t.Fatalf("priority 5 refused: policy %d, log %q; want the warning", r.policy, r.log)
	}
}
