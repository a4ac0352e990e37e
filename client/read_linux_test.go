package client

import (
	"net"
	"testing"
	"time"

	"dlmp/internal/wire"
)

// TestReaderWaitsAfterShortBatch: a datagram that arrives alone costs one
// recvmmsg: a batch shorter than the headers means the socket was empty,
// so the reader waits for the next datagram without asking recvmmsg
// again (which would find nothing: conn.ReadBatch's extra call). Each of
// the datagrams, sent one after the other as the last was handled, is
// handled: waiting after a short batch loses no arrival. It fails if the
// reader reads again after a short batch (two calls a datagram).
func TestReaderWaitsAfterShortBatch(t *testing.T) {
	c := loopClient(t, time.Now().Add(-time.Hour))
	srv := connect(t, c)
	c.kick = make(chan struct{}, 1)
	c.cfg.OnPacket = func(wire.Packet) {}
	c.wg.Add(1)
	go c.readLoop()
	to := c.uc.LocalAddr().(*net.UDPAddr).AddrPort()
	const n = 4
	for i := range n {
		if _, err := srv.WriteToUDPAddrPort((&wire.SetWeather{EventID: uint32(i + 1), Weather: uint8(i)}).Append(nil), to); err != nil {
			t.Fatal(err)
		}
		select {
		case <-c.kick:
		case <-time.After(5 * time.Second):
			t.Fatalf("datagram %d not handled within 5 s", i+1)
		}
		c.mu.Lock()
		events := c.stats.Events
		c.pending = c.pending[:0]
		c.mu.Unlock()
		if events != i+1 {
			t.Fatalf("got %d events handled, want %d", events, i+1)
		}
	}
	c.mu.Lock()
	c.endLocked(0, ErrClosed)
	c.mu.Unlock()
	c.wg.Wait()
	if c.reads > 1+n { // the first finds nothing yet
		t.Errorf("got %d recvmmsg calls for %d datagrams arriving one by one, want at most %d", c.reads, n, 1+n)
	}
}
