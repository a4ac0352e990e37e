package conn

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"sync/atomic"
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
	gbufs [][]byte                 // the pieces of memory of the gather messages of one sendmmsg
	gat   [MaxBatch][2]int         // where each gather piece's list is in gbufs (end 0: a plain piece)
	flat  [MaxBatch][]byte         // each slot's copy of its gather piece (without iovec)
	iovec bool                     // gather pieces go to the kernel as iovecs, not copied (GatherEnv)
	sizes [MaxBatch]int            // the bytes of each message of ms (Len) the call looks at
	oobs  [MaxBatch][oobSpace]byte // each a UDP_SEGMENT control message, its size filled per piece
	owner [MaxBatch]int            // the message of ms each piece belongs to
	ends  [MaxBatch]int            // where each piece ends in its message's Buf
	gso   atomic.Bool              // the socket takes UDP_SEGMENT and the kernel has not refused it (GSO reads it from another goroutine)
	plain bool                     // the next write's first message goes one by one: its GSO piece was refused
	addrs map[netip.AddrPort]*net.UDPAddr
	rfn   func(fd uintptr) bool
}

// oobSpace is the room of one UDP_SEGMENT control message (a uint16).
const oobSpace = 32

// GSOEnv is the environment variable that turns UDP GSO off when "0".
const GSOEnv = "DLMP_GSO"

// GatherEnv is the environment variable that, when "iovec", has a gather
// message's pieces handed to the kernel as they are (an iovec each)
// rather than copied by the writer into one buffer per piece of a call
// (decision 0355: the copy measured cheaper).
const GatherEnv = "DLMP_GATHER"

// gsoOffered asks the socket whether it takes UDP_SEGMENT (Linux ≥ 4.18),
// as quic-go does: getsockopt answers on kernels that know the option.
func gsoOffered(raw syscall.RawConn) bool {
	if os.Getenv(GSOEnv) == "0" {
		return false
	}
	ok := false
	if err := raw.Control(func(fd uintptr) {
		_, err := unix.GetsockoptInt(int(fd), unix.IPPROTO_UDP, unix.UDP_SEGMENT)
		ok = err == nil
	}); err != nil {
		return false
	}
	return ok
}

func (b *batcher) gsoOn() bool { return b.gso.Load() }

func (b *batcher) iovecOn() bool { return b.iovec }

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
		h := (*unix.Cmsghdr)(unsafe.Pointer(&b.oobs[i][0]))
		h.Level, h.Type = unix.SOL_UDP, unix.UDP_SEGMENT
		h.SetLen(unix.CmsgLen(2))
	}
	b.gso.Store(gsoOffered(raw))
	b.iovec = os.Getenv(GatherEnv) == "iovec"
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
		ms[i].Addr = Sockaddr(&b.names[i])
	}
	return n, nil
}

// Sockaddr decodes a kernel sockaddr_in or sockaddr_in6 without allocating
// (what recvmmsg leaves in a message's name; the client's reader uses it too).
func Sockaddr(sa *unix.RawSockaddrInet6) netip.AddrPort {
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

// write sends up to MaxBatch pieces of ms, from byte skip of ms[0], in one
// sendmmsg. It returns the messages sent whole and where the next call
// starts in the first message left. A GSO piece the kernel refuses is sent
// again one datagram at a time by the next call; EIO (the device cannot
// checksum) also turns GSO off for the socket, the others (this
// destination's path: a route MTU below the segment) only for that message.
func (b *batcher) write(_ *net.UDPConn, ms []Message, skip int) (int, int, error) {
	k, at, size := 0, skip, -1
	var cur cursor // where the walk of ms[mi]'s gather list stopped
	b.gbufs = b.gbufs[:0]
	for mi := 0; mi < len(ms) && k < MaxBatch; {
		m := &ms[mi]
		if size < 0 {
			size = m.Len()
		}
		seg, end := piece(m, size, at, b.gso.Load() && !(mi == 0 && b.plain), b.iovec)
		if m.Bufs == nil {
			b.wbufs[k][0] = m.Buf[at:end]
			b.gat[k] = [2]int{}
		} else if !b.iovec {
			// The piece copied into this slot's buffer (warm: reused each
			// call), one iovec for the kernel (decision 0355).
			g := len(b.gbufs)
			b.gbufs = appendRange(b.gbufs, m.Bufs, at, end, size, &cur)
			f := b.flat[k][:0]
			for _, p := range b.gbufs[g:] {
				f = append(f, p...)
			}
			b.flat[k], b.gbufs = f, b.gbufs[:g]
			b.wbufs[k][0] = f
			b.gat[k] = [2]int{}
		} else {
			g := len(b.gbufs)
			b.gbufs = appendRange(b.gbufs, m.Bufs, at, end, size, &cur)
			b.gat[k] = [2]int{g, len(b.gbufs)}
		}
		b.wmsgs[k].Addr = b.addr(m.Addr)
		b.wmsgs[k].OOB = nil
		if seg > 0 {
			binary.NativeEndian.PutUint16(b.oobs[k][unix.CmsgLen(0):], uint16(seg))
			b.wmsgs[k].OOB = b.oobs[k][:unix.CmsgSpace(2)]
		}
		b.owner[k], b.ends[k], b.sizes[k] = mi, end, size
		k++
		if at = end; end == size {
			mi, at, size, cur = mi+1, 0, -1, cursor{}
		}
	}
	for i := range k { // gbufs has its final backing array now
		if g := b.gat[i]; g[1] > 0 {
			b.wmsgs[i].Buffers = b.gbufs[g[0]:g[1]:g[1]]
		}
	}
	n, err := b.wbatch.WriteBatch(b.wmsgs[:k], 0)
	if n < 0 {
		n = 0
	}
	refused := n < k && b.wmsgs[n].OOB != nil && gsoRefusal(err)
	for i := range k {
		b.wbufs[i][0] = nil // do not keep the caller's buffers alive
		b.wmsgs[i].Buffers = b.wbufs[i][:]
	}
	// gbufs is not cleared (a tick's ~90,000 pieces: a tenth of the
	// writer's time): what it points at stays reachable until the next
	// writes take its places.
	done, next := sentWhole(n, b.owner[:], b.ends[:], b.sizes[:], skip)
	if refused {
		b.plain = true // the next call sends the same datagrams one by one
		if errors.Is(err, unix.EIO) {
			b.gso.Store(false)
		}
		return done, next, nil
	}
	if done > 0 || err != nil {
		b.plain = false // an error ends WriteBatch: the next call is another batch
	}
	return done, next, err
}

// addr is the cached *net.UDPAddr of a destination.
func (b *batcher) addr(ap netip.AddrPort) *net.UDPAddr {
	ua := b.addrs[ap]
	if ua == nil {
		if len(b.addrs) >= maxAddrCache {
			clear(b.addrs)
		}
		ua = net.UDPAddrFromAddrPort(ap)
		b.addrs[ap] = ua
	}
	return ua
}

// gsoRefusal reports whether a send error is the kernel refusing a GSO
// message: EIO from a device without checksum offload (quic-go's test),
// EINVAL, EMSGSIZE (a segment above the route's MTU; which one depends on
// the kernel's version) or EOPNOTSUPP from a path that does not segment.
func gsoRefusal(err error) bool {
	return errors.Is(err, unix.EIO) || errors.Is(err, unix.EINVAL) ||
		errors.Is(err, unix.EMSGSIZE) || errors.Is(err, unix.EOPNOTSUPP)
}
