package client

import (
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	"dlmp/client/mirror"
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// loopClient is a Client with no socket, its loop state only; what it
// sends collects in c.out.
func loopClient(t *testing.T, now time.Time) *Client {
	t.Helper()
	uc, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)}) // closed when the connection ends
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { uc.Close() })
	c := &Client{
		uc:    uc,
		cfg:   Config{Log: slog.New(slog.NewTextHandler(io.Discard, nil))},
		hello: wire.ServerHello{PlayerID: 3, SessionToken: 0xABCD, TickHz: 20, TimeoutMs: 1000, KeepaliveMs: 500},
		gbn:   lane.NewGBNSender(lane.GBNConfig{}),
		done:  make(chan struct{}),
		seqs:  map[uint32]*lane.Sequence{},
	}
	c.recv = lane.NewReceiver(c.hello.SessionToken, 0)
	c.world = mirror.New(&c.hello, now)
	c.initNetvars()
	c.expect = 1
	c.lastSent, c.lastHeard = now, now
	return c
}

// TestTickReadsTheBacklogFirst: a client that fell behind (its datagrams
// wait in the loop's queue for longer than the timeout) handles them at
// its tick before judging the server's silence, and gives their buffers
// back to the reader. Before, a tick that came first ended the connection
// with "the server went silent" while the server's datagrams sat queued.
func TestTickReadsTheBacklogFirst(t *testing.T) {
	t0 := time.Now().Add(-5 * time.Second) // the datagrams' handling reads the clock
	c := loopClient(t, t0)
	in, free := make(chan []byte, 4), make(chan []byte, 4)
	for range 3 {
		in <- (&wire.ServerKeepalive{}).Append(make([]byte, 0, 1500))
	}
	c.tickQueued(in, free, t0.Add(2*time.Second))
	if c.err != nil {
		t.Fatalf("tick after 2 s with 3 datagrams queued: ended with %v, want alive", c.err)
	}
	if got := len(in); got != 0 {
		t.Errorf("got %d datagrams left in the queue, want 0", got)
	}
	if got := len(free); got != 3 {
		t.Errorf("got %d buffers given back, want 3", got)
	}
	if got := c.stats.DatagramsIn; got != 3 {
		t.Errorf("got %d datagrams handled, want 3", got)
	}
	// Nothing queued and nothing heard for longer than the timeout: silent.
	c.tickQueued(in, free, time.Now().Add(2*time.Second))
	if c.err == nil {
		t.Fatal("tick 2 s after the last datagram with none queued: alive, want the server silent")
	}
}
