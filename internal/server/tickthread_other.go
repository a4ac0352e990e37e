//go:build !linux

package server

import "errors"

// lockTickThread is linux only.
func lockTickThread(prio int) (tid int, unlock func(), err error) {
	return 0, func() {}, errors.New("server: a real-time tick thread is linux only")
}
