package server

import (
	"runtime"
	"syscall"
	"unsafe"
)

// The kernel's scheduling policies.
const (
	schedOther = 0
	schedFIFO  = 1
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
	tid = syscall.Gettid()
	param := int32(prio) // struct sched_param
	if _, _, e := syscall.RawSyscall(syscall.SYS_SCHED_SETSCHEDULER, 0, schedFIFO, uintptr(unsafe.Pointer(&param))); e != 0 {
		runtime.UnlockOSThread()
		return 0, func() {}, e
	}
	return tid, func() {
		var zero int32
		syscall.RawSyscall(syscall.SYS_SCHED_SETSCHEDULER, 0, schedOther, uintptr(unsafe.Pointer(&zero)))
		runtime.UnlockOSThread()
	}, nil
}

// threadPolicy is the calling thread's scheduling policy.
func threadPolicy() (int, error) {
	p, _, e := syscall.RawSyscall(syscall.SYS_SCHED_GETSCHEDULER, 0, 0, 0)
	if e != 0 {
		return 0, e
	}
	return int(p), nil
}
