package client

import (
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	"dlmp/client/mirror"
	"dlmp/internal/conn"
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
		hello: wire.ServerHello{PlayerID: 3, SessionToken: 0xABCD, SyncHz: 20, TimeoutMs: 1000, KeepaliveMs: 500},
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

// connect gives c a socket connected to a new server socket, as Dial
// does, and returns the server's.
func connect(t *testing.T, c *Client) *net.UDPConn {
	t.Helper()
	srv, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	c.server = srv.LocalAddr().(*net.UDPAddr).AddrPort()
	c.uc.Close()
	if c.uc, err = net.DialUDP("udp4", nil, srv.LocalAddr().(*net.UDPAddr)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.uc.Close() })
	return srv
}

// TestReaderHandlesArrivals: the reader handles a datagram as it arrives,
// without the loop (none runs here), and wakes the loop when a callback is
// due. Before, datagrams waited in a queue for the loop: a client on a busy
// machine judged the server silent with its datagrams still queued.
func TestReaderHandlesArrivals(t *testing.T) {
	t0 := time.Now()
	c := loopClient(t, t0.Add(-time.Hour))
	srv, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c.server = srv.LocalAddr().(*net.UDPAddr).AddrPort()
	c.kick = make(chan struct{}, 1)
	if c.rc, err = conn.Wrap(c.uc); err != nil {
		t.Fatal(err)
	}
	got := make(chan wire.Packet, 1)
	c.cfg.OnPacket = func(p wire.Packet) { got <- p }
	c.wg.Add(1)
	go c.readLoop()
	defer func() { c.mu.Lock(); c.endLocked(0, ErrClosed); c.mu.Unlock(); c.wg.Wait() }()
	if _, err := srv.WriteToUDPAddrPort((&wire.SetWeather{EventID: 1, Weather: 7}).Append(nil), c.uc.LocalAddr().(*net.UDPAddr).AddrPort()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.kick:
	case <-time.After(5 * time.Second):
		t.Fatal("no wake-up of the loop 5 s after a reliable event arrived")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stats.DatagramsIn != 1 || c.stats.Events != 1 {
		t.Errorf("got %d datagrams and %d events handled, want 1 and 1", c.stats.DatagramsIn, c.stats.Events)
	}
	if c.lastHeard.Before(t0) {
		t.Errorf("got lastHeard %v before the arrival, want it at the arrival", c.lastHeard)
	}
	if len(c.pending) != 1 {
		t.Errorf("got %d packets for OnPacket, want 1", len(c.pending))
	}
}

// TestFreshByEntity: the unreliable snapshots are sequenced per entity and
// kind: a player's and a vehicle's with the same id do not interfere, a
// repeated or older seq is stale; one of an entity not shown is fresh (and
// its seq recorded) but moves nothing. The mirror's check is the client's
// only one (decision 0320): a stale snapshot is counted and not handed to
// OnPacket.
func TestFreshByEntity(t *testing.T) {
	now := time.Now()
	c := loopClient(t, now)
	var got []wire.Packet
	c.cfg.OnPacket = func(p wire.Packet) { got = append(got, p) }
	for _, id := range []uint16{5, 6} {
		c.world.Apply(&wire.PlayerShow{PlayerID: id, Active: 1}, now)
	}
	c.world.Apply(&wire.VehicleShow{VehicleID: 5, Active: 1, Model: 411, QW: 1, Health: 1000}, now)
	pm := func(id uint16, seq uint32) wire.Packet {
		return &wire.PlayerMove{PlayerID: id, Seq: seq, State: wire.StateOnFoot, X: float32(seq), Health: 100}
	}
	vm := func(id uint16, seq uint32) wire.Packet {
		return &wire.VehicleMove{VehicleID: id, Seq: seq, QW: 1, Health: 900}
	}
	for i, tt := range []struct {
		p    wire.Packet
		want bool
	}{
		{pm(5, 10), true},
		{pm(5, 10), false},
		{pm(5, 9), false},
		{vm(5, 3), true},
		{pm(6, 1), true},
		{pm(5, 11), true},
		{pm(7, 4), true},  // not shown: fresh, its seq recorded
		{pm(7, 3), false}, // older than the unshown one's
		{vm(5, 2), false},
		{vm(6, 9), true}, // not shown
	} {
		stale, pending := c.stats.Stale, len(c.pending)
		c.receiveLocked(tt.p.Append(nil), now)
		if c.stats.Invalid != 0 {
			t.Fatalf("step %d: %T %+v refused by the decoder", i, tt.p, tt.p)
		}
		if fresh := c.stats.Stale == stale; fresh != tt.want {
			t.Errorf("step %d: %T %+v taken %v, want %v", i, tt.p, tt.p, fresh, tt.want)
		}
		if queued := len(c.pending) > pending; queued != tt.want {
			t.Errorf("step %d: %T %+v queued for OnPacket %v, want %v", i, tt.p, tt.p, queued, tt.want)
		}
	}
	if p, _ := c.world.Player(5); p.Pos.X != 11 {
		t.Errorf("got player 5 at x %v, want 11 (seq 11's)", p.Pos.X)
	}
	if _, ok := c.world.Player(7); ok {
		t.Error("a PlayerMove showed player 7")
	}
	if st := c.world.Stats(); st.StaleMoves != 4 || st.UnshownMoves != 2 {
		t.Errorf("got mirror stats %+v, want 4 stale and 2 unshown moves", st)
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
	if allocs > 0 {
		t.Errorf("got %.0f allocations per event without OnPacket, want 0", allocs)
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

// TestDeliverReusedPacket: the packet a reliable event is parsed into is
// reused for the next event of its id, so nothing may keep it: two labels
// delivered one after the other are held each with its own text.
func TestDeliverReusedPacket(t *testing.T) {
	c := loopClient(t, time.Now())
	for i, text := range []string{"a rather long name label", "hi"} {
		l := &wire.Label3D{EventID: uint32(i + 1), LabelID: uint32(4 + i), Active: 1, Color: 0xFFFFFF, DrawDistance: 50}
		if err := l.SetText(text); err != nil {
			t.Fatal(err)
		}
		c.expect = uint32(i + 1)
		c.deliver(l.Append(nil))
	}
	if c.stats.Invalid != 0 {
		t.Fatalf("got %d events dropped as invalid, want 0", c.stats.Invalid)
	}
	got := c.world.Labels()
	if len(got) != 2 || got[0].ID != 4 || got[0].Text != "a rather long name label" || got[1].ID != 5 || got[1].Text != "hi" {
		t.Errorf("got labels %+v, want 4 %q and 5 %q", got, "a rather long name label", "hi")
	}
}

// TestReaderReadsBacklogInBatches: datagrams queued before the reader
// reads (a client that fell behind) are all handled, from one batch or a
// few, and one from another address among them is not.
func TestReaderReadsBacklogInBatches(t *testing.T) {
	c := loopClient(t, time.Now().Add(-time.Hour))
	srv := connect(t, c)
	stranger, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer stranger.Close()
	to := c.uc.LocalAddr().(*net.UDPAddr).AddrPort()
	const n = readBatch + 3 // more than one batch
	for i := range n {
		if i == 2 {
			if _, err := stranger.WriteToUDPAddrPort((&wire.SetWeather{EventID: 99, Weather: 1}).Append(nil), to); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := srv.WriteToUDPAddrPort((&wire.SetWeather{EventID: uint32(i + 1), Weather: uint8(i)}).Append(nil), to); err != nil {
			t.Fatal(err)
		}
	}
	c.kick = make(chan struct{}, 1)
	if c.rc, err = conn.Wrap(c.uc); err != nil {
		t.Fatal(err)
	}
	c.cfg.OnPacket = func(wire.Packet) {}
	c.wg.Add(1)
	go c.readLoop()
	defer func() { c.mu.Lock(); c.endLocked(0, ErrClosed); c.mu.Unlock(); c.wg.Wait() }()
	deadline := time.Now().Add(5 * time.Second)
	for {
		select {
		case <-c.kick:
		case <-time.After(time.Until(deadline)):
			t.Fatal("the backlog was not handled within 5 s")
		}
		c.mu.Lock()
		in, events := c.stats.DatagramsIn, c.stats.Events
		c.mu.Unlock()
		if events == n {
			if in != n {
				t.Errorf("got %d datagrams handled, want %d: the stranger's is not the server's", in, n)
			}
			return
		}
	}
}

// TestOnTickBeforeSync: OnTick runs on the loop at each tick, outside the
// client's lock (it may call the client), before the tick builds its
// PlayerSync: by the second OnTick the first tick's sync was sent with
// what the first OnTick set.
func TestOnTickBeforeSync(t *testing.T) {
	c := loopClient(t, time.Now())
	srv, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c.server = srv.LocalAddr().(*net.UDPAddr).AddrPort()
	c.kick = make(chan struct{}, 1)
	c.hello.TimeoutMs = 60000
	ticks := 0
	second := make(chan wire.PlayerSync, 1)
	c.cfg.OnTick = func(now time.Time) {
		ticks++
		if ticks == 2 {
			c.mu.Lock()
			second <- c.sync
			c.mu.Unlock()
		}
		if err := c.SetSync(wire.PlayerSync{State: wire.StateOnFoot, X: float32(ticks), Health: 100}); err != nil {
			t.Error(err)
		}
	}
	c.wg.Add(1)
	go c.loop()
	defer func() { c.mu.Lock(); c.endLocked(0, ErrClosed); c.mu.Unlock(); c.wg.Wait() }()
	select {
	case ps := <-second:
		if ps.Seq != 1 || ps.X != 1 {
			t.Errorf("got the first tick's PlayerSync seq %d at x %v, want seq 1 at x 1 (the first OnTick's)", ps.Seq, ps.X)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no second OnTick 5 s after the loop started")
	}
}

// TestSendReusesWrittenBuffers: send copies into buffers flushOut gave
// back once written, never into one still queued: three datagrams written
// over two flushes arrive intact, and a send with a spare allocates
// nothing.
func TestSendReusesWrittenBuffers(t *testing.T) {
	c := loopClient(t, time.Now())
	srv := connect(t, c)
	now := time.Now()
	c.send([]byte("first datagram"), now)
	c.flushOut()
	c.send([]byte("second"), now) // in the first's buffer
	c.send([]byte("third datagram, longer"), now)
	c.flushOut()
	buf := make([]byte, 1500)
	srv.SetReadDeadline(time.Now().Add(5 * time.Second))
	for _, want := range []string{"first datagram", "second", "third datagram, longer"} {
		n, _, err := srv.ReadFromUDPAddrPort(buf)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(buf[:n]); got != want {
			t.Errorf("got datagram %q, want %q", got, want)
		}
	}
	if allocs := testing.AllocsPerRun(100, func() {
		c.send([]byte("again"), now)
		c.out, c.spare = c.out[:0], append(c.spare, c.out[0][:0])
	}); allocs > 0 {
		t.Errorf("got %.0f allocations per send with a spare buffer, want 0", allocs)
	}
}
