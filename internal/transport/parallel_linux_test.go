package transport

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"syscall"
	"testing"
	"time"

	"dlmp/internal/conn"
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// A parallel flush sends every client the same datagrams, byte for byte
// and in the same order, as a flush on the tick's goroutine alone, over
// real loopback sockets: 40 sessions for 30 ticks with reliable events
// (their retransmissions too, nothing being acked), keepalive echoes,
// unreliable packets of their own and shared moves, a session that times
// out and one kicked (their Disconnects). Fails when a worker's datagrams
// are lost, doubled, reordered for a client or packed differently, or
// when an end is missed.
func TestParallelFlushSameDatagrams(t *testing.T) {
	one, _ := parallelRun(t, 1)
	two, joins := parallelRun(t, 2)
	if joins == 0 {
		t.Fatal("the worker took part in no flush: nothing was compared")
	}
	total := 0
	for c := range one {
		total += len(one[c])
		if len(one[c]) != len(two[c]) {
			t.Fatalf("client %d: got %d datagrams with 2 flushers, want %d (as with 1)", c, len(two[c]), len(one[c]))
		}
		for i := range one[c] {
			if !bytes.Equal(one[c][i], two[c][i]) {
				t.Fatalf("client %d, datagram %d: got %x, want %x", c, i, two[c][i], one[c][i])
			}
		}
	}
	if total < 40*30*2 {
		t.Fatalf("the clients got %d datagrams in all, want at least %d", total, 40*30*2)
	}
	for _, c := range []int{7, 13} {
		last := one[c][len(one[c])-1]
		if last[0] != wire.IDDisconnect {
			t.Errorf("client %d's last datagram is packet 0x%02x, want a Disconnect", c, last[0])
		}
	}
}

// parallelRun runs the ticks of TestParallelFlushSameDatagrams on a Server
// whose flush steps the sessions on workers flushers (any number of
// sessions), writing each tick's batches itself, and returns the
// datagrams each client received, in order, and how many times a worker
// took part in a flush.
func parallelRun(t *testing.T, workers int) (got [][][]byte, joins uint64) {
	t.Helper()
	const clients, ticks = 40, 30
	cfg := Config{FlushWorkers: workers, FlushAfter: -1, Timeout: 300 * time.Millisecond}
	cfg.fill()
	s := &Server{cfg: cfg, handler: nopWorld{}, byToken: map[uint64]*Session{},
		out: make(chan *batch, 16), freeB: make(chan *batch, 16), done: make(chan struct{})}
	s.pool.New = func() any { return new(buffer) }
	s.tick.init(s)
	defer func() { close(s.done); s.wg.Wait() }()
	tx, err := conn.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close()
	now := time.Unix(1000, 0)
	var rx []*net.UDPConn
	for i := range clients {
		c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		rx = append(rx, c)
		sess := newSession(s, uint64(i+1), c.LocalAddr().(*net.UDPAddr).AddrPort(), uint64(i+1), now)
		sess.confirmed, sess.joined = true, true
		s.byToken[sess.Token] = sess
		s.tick.sessions = append(s.tick.sessions, sess)
	}
	all := append([]*Session(nil), s.tick.sessions...)
	got = make([][][]byte, clients)
	w := &worldMoves{}
	for tick := range uint32(ticks) {
		now = now.Add(50 * time.Millisecond)
		w.encode(tick, 100)
		for i, sess := range all {
			if i != 7 || tick < 10 { // 7 goes quiet: it times out
				sess.lastHeard = now
			}
			if i == 13 && tick == 5 {
				sess.Kick(wire.ReasonKicked)
			}
			for k := range (i + int(tick)) % 4 {
				msg := (&wire.SetTime{Hours: uint8(k), Minutes: uint8(tick)}).Append(nil)
				if err := sess.Send(msg, lane.Critical); err != nil && !errors.Is(err, ErrClosed) {
					t.Fatal(err)
				}
			}
			if (i+int(tick))%5 == 0 {
				sess.echo, sess.echoDue = uint32(i)<<16|tick, true
			}
			if i%4 != 3 { // some send only reliable events, or nothing
				viewerSends(sess, w, i%5, tick)
			}
		}
		s.Flush(now)
		for {
			select {
			case b := <-s.out:
				if n, err := s.write(tx, b); err != nil || n != len(b.msgs) {
					t.Fatalf("WriteBatch = %d, %v; want %d, nil", n, err, len(b.msgs))
				}
				s.written.Store(b.seq)
				s.recycle(b)
				continue
			default:
			}
			break
		}
		for i, c := range rx {
			got[i] = append(got[i], readQueued(t, c)...)
		}
	}
	_, joins, _ = s.FlushRounds()
	return got, joins
}

// readQueued returns the datagrams queued on c, not waiting for more: on
// loopback a datagram is queued when its send returns.
func readQueued(t *testing.T, c *net.UDPConn) [][]byte {
	t.Helper()
	rc, err := c.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	var rerr error
	buf := make([]byte, 2048)
	err = rc.Read(func(fd uintptr) bool {
		for {
			n, _, err := syscall.Recvfrom(int(fd), buf, syscall.MSG_DONTWAIT)
			if err != nil {
				if !errors.Is(err, syscall.EAGAIN) {
					rerr = err
				}
				return true
			}
			out = append(out, bytes.Clone(buf[:n]))
		}
	})
	if err != nil || rerr != nil {
		t.Fatal(fmt.Errorf("reading a client's datagrams: %v, %v", err, rerr))
	}
	return out
}
