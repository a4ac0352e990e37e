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

// MaxBatch is the most datagrams one ReadBatch or WriteBatch moves.
const MaxBatch = 64

// SocketBuffer is the size asked of the kernel for each of the socket's
// receive and send buffers (the kernel may grant less: see net.core.rmem_max).
const SocketBuffer = 4 << 20

// Message is one datagram.
type Message struct {
	Buf  []byte         // read: the buffer to fill (its length is the room); write: the datagram
	N    int            // read: bytes received into Buf
	Addr netip.AddrPort // read: the source; write: the destination
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

// WriteBatch sends every message and returns how many were sent before an
// error, if any. It sends all of ms, in batches of at most MaxBatch.
func (c *Conn) WriteBatch(ms []Message) (int, error) {
	sent := 0
	for len(ms) > 0 {
		k := min(len(ms), MaxBatch)
		n, err := c.batch.write(c.uc, ms[:k])
		sent += n
		if err != nil {
			return sent, err
		}
		ms = ms[n:]
	}
	return sent, nil
}
