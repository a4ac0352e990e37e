//go:build !linux

package rtthread

import "errors"

// The scheduling policies, as on linux.
const (
	Other = 0
	FIFO  = 1
)

// Lock is linux only.
func Lock(prio int) (tid int, unlock func(), err error) {
	return 0, func() {}, errors.New("rtthread: a real-time thread is linux only")
}

// Policy is linux only.
func Policy(tid int) (int, error) {
	return 0, errors.New("rtthread: scheduling policies are linux only")
}
