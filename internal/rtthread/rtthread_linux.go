package rtthread

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// The kernel's scheduling policies.
const (
	Other = unix.SCHED_NORMAL
	FIFO  = unix.SCHED_FIFO
)

// Lock locks the calling goroutine to its OS thread and runs that thread in
// the real-time class SCHED_FIFO at priority prio (1..99): it then takes a
// core as soon as it is runnable, ahead of every ordinary thread, instead of
// waiting in the run queue behind them. It needs CAP_SYS_NICE (or
// RLIMIT_RTPRIO). It returns the thread's id and the unlock to defer, which
// puts the thread back in the ordinary class before it goes back to the
// runtime's pool; on error the goroutine stays unlocked and its thread
// unchanged.
func Lock(prio int) (tid int, unlock func(), err error) {
	runtime.LockOSThread()
	tid = unix.Gettid()
	if err := setPolicy(FIFO, prio); err != nil {
		runtime.UnlockOSThread()
		return 0, func() {}, err
	}
	return tid, func() {
		setPolicy(Other, 0)
		runtime.UnlockOSThread()
	}, nil
}

// setPolicy puts the calling thread in policy at priority prio.
func setPolicy(policy, prio int) error {
	return unix.SchedSetAttr(0, &unix.SchedAttr{Size: unix.SizeofSchedAttr, Policy: uint32(policy), Priority: uint32(prio)}, 0)
}

// Policy is thread tid's scheduling policy; 0 is the calling thread.
func Policy(tid int) (int, error) {
	a, err := unix.SchedGetAttr(tid, 0)
	if err != nil {
		return 0, err
	}
	return int(a.Policy), nil
}
