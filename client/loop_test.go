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

// TestFreshByEntity: the unreliable snapshots are sequenced per entity and
// kind: a player's and a vehicle's with the same id do not interfere, a
// repeated or older seq is stale.
func TestFreshByEntity(t *testing.T) {
	c := loopClient(t, time.Now())
	for i, tt := range []struct {
		p    wire.Packet
		want bool
	}{
		{&wire.PlayerMove{PlayerID: 5, Seq: 10}, true},
		{&wire.PlayerMove{PlayerID: 5, Seq: 10}, false},
		{&wire.PlayerMove{PlayerID: 5, Seq: 9}, false},
		{&wire.VehicleMove{VehicleID: 5, Seq: 3}, true},
		{&wire.PlayerMove{PlayerID: 6, Seq: 1}, true},
		{&wire.PlayerMove{PlayerID: 5, Seq: 11}, true},
		{&wire.PlayerMove{PlayerID: wire.MaxPlayers, Seq: 1}, false},
		{&wire.VehicleMove{VehicleID: 5, Seq: 2}, false},
		{&wire.SetWeather{}, true}, // not sequenced
	} {
		if got := c.fresh(tt.p); got != tt.want {
			t.Errorf("step %d: fresh(%T %+v) = %v, want %v", i, tt.p, tt.p, got, tt.want)
		}
	}
}

// TestDeliverWithoutOnPacketClonesNothing: a client without OnPacket (the
// bots) applies a reliable event without copying it for a callback that
// does not exist, and queues nothing for one; with OnPacket, the callback
// gets a copy that does not alias the lane's buffer.
func TestDeliverWithoutOnPacketClonesNothing(t *testing.T) {
	c := loopClient(t, time.Now())
	show := &wire.SetWeather{EventID: 1, Weather: 7}
	msg := show.Append(nil)
	allocs := testing.AllocsPerRun(100, func() {
		c.expect = 1
		c.deliver(msg)
	})
	if allocs > 1 {
		t.Errorf("got %.0f allocations per event without OnPacket, want at most 1 (the parsed packet)", allocs)
	}
	if len(c.pending) != 0 {
		t.Errorf("got %d packets queued for OnPacket without one, want 0", len(c.pending))
	}
	c.cfg.OnPacket = func(wire.Packet) {}
	c.deliver(msg)
	if len(c.pending) != 1 {
		t.Fatalf("got %d packets queued for OnPacket, want 1", len(c.pending))
	}
	msg[len(msg)-1] = 9 // the lane reuses its buffer
	if got := c.pending[0].(*wire.SetWeather).Weather; got != 7 {
		t.Errorf("got weather %d in the queued packet after the buffer changed, want 7", got)
	}
}
