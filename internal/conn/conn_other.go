//go:build !linux

package conn

import "net"

// batcher, off Linux: one datagram per system call, no GSO.
type batcher struct{}

func (b *batcher) init(uc *net.UDPConn, network string) error { return nil }

func (b *batcher) gsoOn() bool { return false }

func (b *batcher) read(uc *net.UDPConn, ms []Message) (int, error) {
	n, ap, err := uc.ReadFromUDPAddrPort(ms[0].Buf)
	if err != nil {
		return 0, err
	}
	ms[0].N, ms[0].Addr = n, ap
	return 1, nil
}

// write sends ms from byte skip of ms[0], one datagram at a time, and
// returns the messages sent whole and where the next call starts in the
// first message left.
func (b *batcher) write(uc *net.UDPConn, ms []Message, skip int) (int, int, error) {
	for i := range ms {
		for {
			p, _, end := piece(&ms[i], skip, false)
			if _, err := uc.WriteToUDPAddrPort(p, ms[i].Addr); err != nil {
				return i, skip, err
			}
			skip = 0
			if end == len(ms[i].Buf) {
				break
			}
			skip = end
		}
	}
	return len(ms), 0, nil
}
