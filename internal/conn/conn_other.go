//go:build !linux

package conn

import "net"

// batcher, off Linux: one datagram per system call.
type batcher struct{}

func (b *batcher) init(uc *net.UDPConn, network string) error { return nil }

func (b *batcher) read(uc *net.UDPConn, ms []Message) (int, error) {
	n, ap, err := uc.ReadFromUDPAddrPort(ms[0].Buf)
	if err != nil {
		return 0, err
	}
	ms[0].N, ms[0].Addr = n, ap
	return 1, nil
}

func (b *batcher) write(uc *net.UDPConn, ms []Message) (int, error) {
	for i := range ms {
		if _, err := uc.WriteToUDPAddrPort(ms[i].Buf, ms[i].Addr); err != nil {
			return i, err
		}
	}
	return len(ms), nil
}
