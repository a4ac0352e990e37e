package conn

import (
	"encoding/binary"
	"fmt"
	"net"
	"net/netip"
	"syscall"
	"unsafe"

	"golang.org/x/net/ipv4"
	"golang.org/x/net/ipv6"
	"golang.org/x/sys/unix"
)

// maxAddrCache bounds the destination cache; it is cleared when full.
const maxAddrCache = 8192

// batcher, on Linux: recvmmsg by hand into preallocated headers, sendmmsg
// through x/net.
type batcher struct {
	raw syscall.RawConn

	// read side, owned by the reader
	hdrs  [MaxBatch]unix.Mmsghdr
	iovs  [MaxBatch]unix.Iovec
	names [MaxBatch]unix.RawSockaddrInet6 // large enough for either family
	rn    int
	rerr  syscall.Errno

	// write side, owned by the writer
	wbatch interface {
		WriteBatch(ms []ipv4.Message, flags int) (int, error)
	}
	wmsgs [MaxBatch]ipv4.Message
	wbufs [MaxBatch][1][]byte
	addrs map[netip.AddrPort]*net.UDPAddr
	rfn   func(fd uintptr) bool
}

type v6batch struct{ *ipv6.PacketConn }

func (p v6batch) WriteBatch(ms []ipv4.Message, flags int) (int, error) {
	return p.PacketConn.WriteBatch(ms, flags) // ipv4.Message and ipv6.Message are both socket.Message
}

func (b *batcher) init(uc *net.UDPConn, network string) error {
	raw, err := uc.SyscallConn()
	if err != nil {
		return fmt.Errorf("conn: %w", err)
	}
	b.raw = raw
	if network == "udp6" {
		b.wbatch = v6batch{ipv6.NewPacketConn(uc)}
	} else {
		b.wbatch = ipv4.NewPacketConn(uc)
	}
	b.addrs = make(map[netip.AddrPort]*net.UDPAddr)
	for i := range b.wmsgs {
		b.wmsgs[i].Buffers = b.wbufs[i][:]
	}
	for i := range b.hdrs {
		b.hdrs[i].Hdr.Iov = &b.iovs[i]
		b.hdrs[i].Hdr.SetIovlen(1)
		b.hdrs[i].Hdr.Name = (*byte)(unsafe.Pointer(&b.names[i]))
	}
	b.rfn = b.recv // one closure, made once: no allocation per read
	return nil
}

// count is how many headers the pending recv may fill; set before raw.Read.
func (b *batcher) recv(fd uintptr) bool {
	n, _, errno := unix.Syscall6(unix.SYS_RECVMMSG, fd, uintptr(unsafe.Pointer(&b.hdrs[0])),
		uintptr(b.rn), unix.MSG_DONTWAIT, 0, 0)
	if errno == unix.EAGAIN || errno == unix.EWOULDBLOCK {
		return false // wait for readiness
	}
	if errno == unix.EINTR {
		return false
	}
	b.rerr = errno
	b.rn = int(n)
	return true
}

func (b *batcher) read(_ *net.UDPConn, ms []Message) (int, error) {
	for i := range ms {
		buf := ms[i].Buf
		b.iovs[i].Base = unsafe.SliceData(buf)
		b.iovs[i].SetLen(len(buf))
		b.hdrs[i].Hdr.Namelen = uint32(unsafe.Sizeof(b.names[i]))
		b.hdrs[i].Hdr.Flags = 0
		b.hdrs[i].Len = 0
	}
	b.rn, b.rerr = len(ms), 0
	if err := b.raw.Read(b.rfn); err != nil {
		return 0, err
	}
	if b.rerr != 0 {
		return 0, fmt.Errorf("conn: recvmmsg: %w", b.rerr)
	}
	n := b.rn
	for i := 0; i < n; i++ {
		ms[i].N = int(b.hdrs[i].Len)
		ms[i].Addr = sockaddr(&b.names[i])
	}
	return n, nil
}

// sockaddr decodes a kernel sockaddr_in or sockaddr_in6 without allocating.
func sockaddr(sa *unix.RawSockaddrInet6) netip.AddrPort {
	switch sa.Family {
	case unix.AF_INET:
		s4 := (*unix.RawSockaddrInet4)(unsafe.Pointer(sa))
		port := binary.BigEndian.Uint16((*[2]byte)(unsafe.Pointer(&s4.Port))[:])
		return netip.AddrPortFrom(netip.AddrFrom4(s4.Addr), port)
	case unix.AF_INET6:
		port := binary.BigEndian.Uint16((*[2]byte)(unsafe.Pointer(&sa.Port))[:])
		return netip.AddrPortFrom(netip.AddrFrom16(sa.Addr).Unmap(), port)
	}
	return netip.AddrPort{}
}

func (b *batcher) write(_ *net.UDPConn, ms []Message) (int, error) {
	for i := range ms {
		ua := b.addrs[ms[i].Addr]
		if ua == nil {
			if len(b.addrs) >= maxAddrCache {
				clear(b.addrs)
			}
			ua = net.UDPAddrFromAddrPort(ms[i].Addr)
			b.addrs[ms[i].Addr] = ua
		}
		b.wbufs[i][0] = ms[i].Buf
		b.wmsgs[i].Addr = ua
	}
	n, err := b.wbatch.WriteBatch(b.wmsgs[:len(ms)], 0)
	for i := range ms {
		b.wbufs[i][0] = nil // do not keep the caller's buffers alive
	}
	return n, err
}
