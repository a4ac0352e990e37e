// Package conn is the UDP socket of the server and the client: batched reads
// and writes of whole datagrams with their peer addresses as netip.AddrPort.
//
// On Linux, reads use recvmmsg directly (x/net's ReadBatch allocates two
// values per datagram for the source address; this one fills preallocated
// buffers) and writes use sendmmsg through golang.org/x/net/ipv4, with the
// destination *net.UDPAddr cached per peer, so the steady state allocates
// nothing per datagram. Elsewhere both fall back to one datagram per call.
// See docs/decisions/0002-batched-udp.md.
//
// A written Message may carry several datagrams of one size (Seg): on Linux
// they go out as one UDP GSO message (the UDP_SEGMENT control message: the
// kernel cuts it into datagrams below the socket layer), where the socket
// offers it; otherwise, or once the kernel refused it, one by one. See
// docs/decisions/0338-udp-gso.md.
//
// A written Message may also be a gather list (Bufs): pieces of memory
// the caller keeps, whose bytes are the message's. On Linux the writer
// copies each system-call piece of it into a buffer of its own, reused
// call after call, and hands the kernel that (one iovec); with
// DLMP_GATHER=iovec the pieces go to the kernel as they are, an iovec each
// (measured dearer per datagram). See docs/decisions/0355-gather-moves.md.
//
// A Conn has one reader and one writer: ReadBatch may be called from one
// goroutine at a time and WriteBatch from one (possibly another) goroutine at
// a time. Close may be called from anywhere and unblocks ReadBatch.
package conn

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
)

// MaxBatch is the most datagrams one ReadBatch moves, and the most
// messages one sendmmsg call of WriteBatch carries.
const MaxBatch = 64

// MaxSegments is the most datagrams one written Message may carry (the
// kernel's UDP_MAX_SEGMENTS: 64 in older kernels, 128 in recent ones).
const MaxSegments = 64

// maxGSOBytes bounds one GSO message: an IPv4 datagram's 65,535 bytes less
// the headers, with room to spare.
const maxGSOBytes = 65000

// SocketBuffer is the size asked of the kernel for each of the socket's
// receive and send buffers (the kernel may grant less: see net.core.rmem_max).
const SocketBuffer = 4 << 20

// MaxIovecs is the most pieces of memory one system-call message may
// gather (the kernel's UIO_MAXIOV): a gather Message's GSO piece ends at
// the last datagram boundary within it. One datagram must not need more.
const MaxIovecs = 1024

// Message is one datagram.
type Message struct {
	Buf  []byte         // read: the buffer to fill (its length is the room); write: the datagram(s)
	N    int            // read: bytes received into Buf
	Addr netip.AddrPort // read: the source; write: the destination
	// Seg, write only: when > 0, the message's bytes are datagrams of Seg
	// bytes each back to back, the last one possibly shorter, at most
	// MaxSegments.
	Seg int
	// Bufs, write only: when not nil, the message's bytes are those of
	// Bufs, one after the other, and Buf is not read (a gather list: the
	// kernel copies each piece from where it is). A datagram may begin or
	// end inside a piece.
	Bufs [][]byte
}

// Len is the number of bytes a written Message carries.
func (m *Message) Len() int {
	if m.Bufs == nil {
		return len(m.Buf)
	}
	n := 0
	for _, b := range m.Bufs {
		n += len(b)
	}
	return n
}

// Datagrams is how many datagrams a written Message carries.
func (m *Message) Datagrams() int {
	n := m.Len()
	if m.Seg <= 0 || n <= m.Seg {
		return 1
	}
	return (n + m.Seg - 1) / m.Seg
}

// Conn is a UDP socket.
type Conn struct {
	uc    *net.UDPConn
	local netip.AddrPort
	batch batcher // platform part: batched reads and writes
}

// Listen opens a UDP socket on addr ("host:port"; an empty host or ":port"
// listens on every IPv4 address, an IPv6 literal on IPv6).
func Listen(addr string) (*Conn, error) {
	network := "udp4"
	if host, _, err := net.SplitHostPort(addr); err == nil && host != "" {
		if ip, err := netip.ParseAddr(host); err == nil && ip.Is6() && !ip.Is4In6() {
			network = "udp6"
		}
	}
	ua, err := net.ResolveUDPAddr(network, addr)
	if err != nil {
		return nil, fmt.Errorf("conn: resolve %q: %w", addr, err)
	}
	uc, err := net.ListenUDP(network, ua)
	if err != nil {
		return nil, fmt.Errorf("conn: listen %q: %w", addr, err)
	}
	// Best effort: a smaller grant only means more drops under a burst.
	_ = uc.SetReadBuffer(SocketBuffer)
	_ = uc.SetWriteBuffer(SocketBuffer)
	c := &Conn{uc: uc, local: uc.LocalAddr().(*net.UDPAddr).AddrPort()}
	if err := c.batch.init(uc, network); err != nil {
		uc.Close()
		return nil, err
	}
	return c, nil
}

// Wrap makes a Conn of a UDP socket opened elsewhere: the client's, which
// handshakes on it with deadlines before its reader batches. It leaves the
// socket's buffers as they are. The Conn owns uc from now on: Close closes it.
func Wrap(uc *net.UDPConn) (*Conn, error) {
	la, ok := uc.LocalAddr().(*net.UDPAddr)
	if !ok {
		return nil, fmt.Errorf("conn: wrap: not a UDP socket")
	}
	network := "udp4"
	if la.IP.To4() == nil {
		network = "udp6"
	}
	c := &Conn{uc: uc, local: la.AddrPort()}
	if err := c.batch.init(uc, network); err != nil {
		return nil, err
	}
	return c, nil
}

// LocalAddr is the address the socket is bound to.
func (c *Conn) LocalAddr() netip.AddrPort { return c.local }

// Close closes the socket; a blocked ReadBatch returns net.ErrClosed.
func (c *Conn) Close() error { return c.uc.Close() }

// ReadBatch blocks until at least one datagram arrives, then fills up to
// len(ms) (at most MaxBatch) messages and returns how many it filled.
// A datagram longer than its Buf is truncated to it and counted in
// Truncated.
func (c *Conn) ReadBatch(ms []Message) (int, error) {
	if len(ms) > MaxBatch {
		ms = ms[:MaxBatch]
	}
	if len(ms) == 0 {
		return 0, errors.New("conn: ReadBatch with no messages")
	}
	return c.batch.read(c.uc, ms)
}

// WriteBatch sends every message and returns how many were sent whole
// before an error, if any. It sends all of ms, in system calls of at most
// MaxBatch messages. A message of more than MaxSegments datagrams is an
// error, found before anything is sent.
func (c *Conn) WriteBatch(ms []Message) (int, error) {
	for i := range ms {
		if d := ms[i].Datagrams(); d > MaxSegments {
			return 0, fmt.Errorf("conn: message %d: %d datagrams of %d bytes, at most %d", i, d, ms[i].Seg, MaxSegments)
		}
	}
	sent, skip := 0, 0
	for len(ms) > 0 {
		n, next, err := c.batch.write(c.uc, ms, skip)
		sent += n
		ms, skip = ms[n:], next
		if err != nil {
			return sent, err
		}
	}
	return sent, nil
}

// GSO reports whether WriteBatch sends a Message's datagrams as one UDP GSO
// message: the socket offered it and the kernel has not refused it.
func (c *Conn) GSO() bool { return c.batch.gsoOn() }

// Iovec reports whether WriteBatch hands the kernel a gather Message's
// pieces as they are (DLMP_GATHER=iovec, Linux), rather than copied into
// one buffer per piece of a call.
func (c *Conn) Iovec() bool { return c.batch.iovecOn() }

// piece returns where the next piece of m from byte skip ends, what one
// system-call message carries: with gso, up to MaxSegments datagrams (and
// maxGSOBytes, and with iovec MaxIovecs pieces of a gather list); without,
// one datagram. size is m.Len(). seg is the segment size to ask the kernel
// for (0: the piece is one datagram); end is size for the last piece.
func piece(m *Message, size, skip int, gso, iovec bool) (seg, end int) {
	rest := size - skip
	if m.Seg <= 0 || rest <= m.Seg {
		return 0, size
	}
	step := m.Seg
	if gso {
		step = m.Seg * min(MaxSegments, max(1, maxGSOBytes/m.Seg))
	}
	end = skip + min(step, rest)
	if iovec && len(m.Bufs) > MaxIovecs && end-skip > m.Seg {
		end = gatherEnd(m.Bufs, skip, end, m.Seg)
	}
	if end-skip > m.Seg {
		seg = m.Seg
	}
	return seg, end
}

// gatherEnd cuts the piece [skip, end) of the gather list bufs back to the
// last datagram boundary (skip + k·seg, or end) it reaches in at most
// MaxIovecs pieces of memory; at least one datagram.
func gatherEnd(bufs [][]byte, skip, end, seg int) int {
	pos, n := 0, 0 // pos: where bufs[i] starts; n: the pieces of memory so far
	best, next := skip+seg, skip+seg
	for _, b := range bufs {
		lo, hi := pos, pos+len(b)
		pos = hi
		if hi <= skip || len(b) == 0 {
			continue
		}
		if lo >= end {
			break
		}
		if n++; n > MaxIovecs {
			return best
		}
		for next <= min(hi, end) {
			best, next = next, next+seg
		}
	}
	return end
}

// cursor is where a walk of a gather list stopped: the piece i, which
// starts at byte pos. The next piece of the same message starts there, so
// its walk does not begin again from the first piece.
type cursor struct{ i, pos int }

// appendRange appends to dst the pieces of memory of the gather list bufs
// (of size bytes) that hold its bytes [at, end), walking from c (reset to
// the start when past at) and leaving c where the walk stopped.
func appendRange(dst [][]byte, bufs [][]byte, at, end, size int, c *cursor) [][]byte {
	if at == 0 && end == size {
		return append(dst, bufs...) // the whole list (empty pieces cost nothing)
	}
	i, pos := c.i, c.pos
	if pos > at {
		i, pos = 0, 0
	}
	for ; i < len(bufs); i++ {
		b := bufs[i]
		lo, hi := pos, pos+len(b)
		if lo >= end {
			break
		}
		if hi > at && len(b) > 0 {
			dst = append(dst, b[max(at, lo)-lo:min(hi, end)-lo])
		}
		if hi > end {
			break // the next piece starts in this one
		}
		pos = hi
	}
	c.i, c.pos = i, pos
	return dst
}

// sentWhole maps n system-call messages sent, of pieces owned by messages
// owner[i] (of sizes[i] bytes) and ending at ends[i], to the messages sent
// whole and the byte of the next message where the next call starts.
func sentWhole(n int, owner, ends, sizes []int, skip int) (done, next int) {
	if n == 0 {
		return 0, skip
	}
	o, e := owner[n-1], ends[n-1]
	if e == sizes[n-1] {
		return o + 1, 0
	}
	return o, e
}
