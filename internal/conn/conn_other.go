//go:build !linux

package conn

import "net"

// batcher, off Linux: one datagram per system call, no GSO.
type batcher struct {
	gbufs [][]byte // a gather datagram's pieces
	flat  []byte   // a gather datagram, copied
}

func (b *batcher) init(uc *net.UDPConn, network string) error { return nil }

func (b *batcher) gsoOn() bool { return false }

func (b *batcher) iovecOn() bool { return false }

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
// first message left. A gather message's datagrams are copied into one
// buffer first.
func (b *batcher) write(uc *net.UDPConn, ms []Message, skip int) (int, int, error) {
	for i := range ms {
		m := &ms[i]
		size := m.Len()
		var cur cursor
		for {
			_, end := piece(m, size, skip, false, false)
			var p []byte
			if m.Bufs == nil {
				p = m.Buf[skip:end]
			} else {
				b.flat, b.gbufs = b.flat[:0], appendRange(b.gbufs[:0], m.Bufs, skip, end, size, &cur)
				for _, g := range b.gbufs {
					b.flat = append(b.flat, g...)
				}
				p = b.flat
			}
			if _, err := uc.WriteToUDPAddrPort(p, m.Addr); err != nil {
				return i, skip, err
			}
			skip = 0
			if end == size {
				break
			}
			skip = end
		}
	}
	return len(ms), 0, nil
}
