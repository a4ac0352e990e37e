package client

import (
	"unsafe"

	"dlmp/internal/conn"

	"golang.org/x/sys/unix"
)

// On Linux the reader reads in one RawRead for the whole connection:
// recvmmsg by hand (as package conn does), the batch handled inside the
// read's callback. A batch shorter than the headers means recvmmsg found
// the socket empty, so the callback goes back to waiting for readiness at
// once; conn.ReadBatch, one RawRead a batch, first calls recvmmsg again,
// which a client that keeps up finds empty at nearly every wake-up (one
// system call in two, in issue 7's bots). Waiting after a short batch loses
// no datagram: the runtime's poller records the readiness of any datagram
// that arrives after recvmmsg's check, and the wait returns at once for
// it, as after an EAGAIN. (Only RawRead's entry forgets a readiness
// recorded before it, which is why the loop stays inside one.)

// batchReader is the connection's reader state; the reader goroutine owns
// it.
type batchReader struct {
	c     *Client
	ms    []conn.Message
	hdrs  [readBatch]unix.Mmsghdr
	iovs  [readBatch]unix.Iovec
	names [readBatch]unix.RawSockaddrInet6 // large enough for either family
}

// read reads until the socket is closed or the connection ends.
func (c *Client) read(ms []conn.Message) {
	raw, err := c.uc.SyscallConn()
	if err != nil {
		c.readEach(ms)
		return
	}
	r := &batchReader{c: c, ms: ms[:min(len(ms), readBatch)]}
	for i := range r.ms {
		r.hdrs[i].Hdr.Iov = &r.iovs[i]
		r.hdrs[i].Hdr.SetIovlen(1)
		r.hdrs[i].Hdr.Name = (*byte)(unsafe.Pointer(&r.names[i]))
	}
	raw.Read(r.recv) // returns when the socket is closed or the connection ended
}

// recv reads and handles batches until recvmmsg finds the socket empty
// (false: wait for readiness) or the connection ends (true).
func (r *batchReader) recv(fd uintptr) bool {
	for {
		for i := range r.ms {
			buf := r.ms[i].Buf
			r.iovs[i].Base = unsafe.SliceData(buf)
			r.iovs[i].SetLen(len(buf))
			r.hdrs[i].Hdr.Namelen = uint32(unsafe.Sizeof(r.names[i]))
			r.hdrs[i].Hdr.Flags = 0
			r.hdrs[i].Len = 0
		}
		r.c.reads++
		n, _, errno := unix.Syscall6(unix.SYS_RECVMMSG, fd, uintptr(unsafe.Pointer(&r.hdrs[0])),
			uintptr(len(r.ms)), unix.MSG_DONTWAIT, 0, 0)
		switch errno {
		case 0:
		case unix.EAGAIN:
			return false
		case unix.EINTR:
			continue // data may be queued: no readiness would come for it
		case unix.ECONNREFUSED:
			r.c.refusedRead() // transient: the server-silent timeout decides
			continue
		default:
			return true // the socket failed: readLoop ends the connection
		}
		for i := range int(n) {
			r.ms[i].N = int(r.hdrs[i].Len)
			r.ms[i].Addr = conn.Sockaddr(&r.names[i])
		}
		if !r.c.handleBatch(r.ms[:n]) {
			return true
		}
		if int(n) < len(r.ms) {
			return false // the socket was empty: wait for the next datagram
		}
	}
}
