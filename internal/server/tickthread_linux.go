package server

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// The kernel's scheduling policies.
const (
	schedOther = unix.SCHED_NORMAL
	schedFIFO  = unix.SCHED_FIFO
)

// lockTickThread locks the calling goroutine (Run's) to its OS thread and
// runs that thread in the real-time class SCHED_FIFO at priority prio: it
// then takes a core as soon as it is runnable, ahead of every ordinary
// thread, instead of waiting in the run queue behind them (decision 0255).
// It needs CAP_SYS_NICE (or RLIMIT_RTPRIO). It returns the thread's id and
// the unlock to defer, which puts the thread back in the ordinary class
// before it goes back to the runtime's pool; on error the goroutine stays
// unlocked.
func lockTickThread(prio int) (tid int, unlock func(), err error) {
	runtime.LockOSThread()
	tid = unix.Gettid()
	if err := setPolicy(schedFIFO, prio); err != nil {
		runtime.UnlockOSThread()
		return 0, func() {}, err
	}
	return tid, func() {
		setPolicy(schedOther, 0)
		runtime.UnlockOSThread()
	}, nil
}

// setPolicy puts the calling thread in policy at priority prio.
func setPolicy(policy, prio int) error {
	return unix.SchedSetAttr(0, &unix.SchedAttr{Size: unix.SizeofSchedAttr, Policy: uint32(policy), Priority: uint32(prio)}, 0)
}

// threadPolicy is the calling thread's scheduling policy.
func threadPolicy() (int, error) {
	a, err := unix.SchedGetAttr(0, 0)
	if err != nil {
		return 0, err
	}
	return int(a.Policy), nil
}
