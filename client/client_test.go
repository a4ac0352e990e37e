package client_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"dlmp/client"
	"dlmp/internal/lane"
	"dlmp/internal/transport"
	"dlmp/internal/wire"
)

// server is a transport.Server ticked by its own goroutine; tests run code
// on that goroutine with do.
type server struct {
	srv    *transport.Server
	jobs   chan func()
	stop   chan struct{}
	wg     sync.WaitGroup
	mu     sync.Mutex
	got    []wire.Packet
	left   map[uint16]uint8
	joined []*transport.Session
}

func (s *server) Join(sess *transport.Session, h *wire.ServerHello) bool {
	sess.PlayerID = uint16(len(s.joined))
	h.Hours, h.Minutes, h.Weather = 8, 30, 2
	s.joined = append(s.joined, sess)
	return true
}

func (s *server) Packet(sess *transport.Session, p wire.Packet, now time.Time) {
	q := wire.New(p.ID())
	q.Parse(p.Append(nil))
	s.mu.Lock()
	s.got = append(s.got, q)
	s.mu.Unlock()
}

func (s *server) Leave(sess *transport.Session, reason uint8) {
	s.mu.Lock()
	s.left[sess.PlayerID] = reason
	s.mu.Unlock()
}

func startServer(t *testing.T) *server {
	t.Helper()
	s := &server{jobs: make(chan func()), stop: make(chan struct{}), left: map[uint16]uint8{}}
	srv, err := transport.Listen(transport.Config{Listen: "127.0.0.1:0", Timeout: 5 * time.Second}, s)
	if err != nil {
		t.Fatal(err)
	}
	s.srv = srv
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		tk := time.NewTicker(5 * time.Millisecond)
		defer tk.Stop()
		for {
			select {
			case <-s.stop:
				return
			case f := <-s.jobs:
				f()
			case now := <-tk.C:
				srv.Tick(now)
			}
		}
	}()
	t.Cleanup(func() {
		close(s.stop)
		s.wg.Wait()
		srv.Close()
	})
	return s
}

// do runs f on the tick goroutine and waits for it.
func (s *server) do(f func()) {
	done := make(chan struct{})
	s.jobs <- func() { f(); close(done) }
	<-done
}

// collector gathers what OnPacket receives.
type collector struct {
	mu sync.Mutex
	ps []wire.Packet
	ch chan struct{}
}

func newCollector() *collector { return &collector{ch: make(chan struct{}, 1000)} }

func (c *collector) on(p wire.Packet) {
	c.mu.Lock()
	c.ps = append(c.ps, p)
	c.mu.Unlock()
	c.ch <- struct{}{}
}

// wait waits for n packets in all.
func (c *collector) wait(t *testing.T, n int) []wire.Packet {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		c.mu.Lock()
		if len(c.ps) >= n {
			out := append([]wire.Packet(nil), c.ps...)
			c.mu.Unlock()
			return out
		}
		c.mu.Unlock()
		select {
		case <-c.ch:
		case <-deadline:
			t.Fatalf("got %d packets, want %d", len(c.ps), n)
		}
	}
}

func dial(t *testing.T, s *server, col *collector) *client.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cfg := client.Config{Server: s.srv.Addr().String()}
	if col != nil {
		cfg.OnPacket = col.on
	}
	c, err := client.Dial(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestDialAndEvents(t *testing.T) {
	s := startServer(t)
	col := newCollector()
	c := dial(t, s, col)
	h := c.Hello()
	if h.Hours != 8 || h.Minutes != 30 || h.Weather != 2 || h.SessionToken == 0 {
		t.Fatalf("hello %+v", h)
	}
	s.do(func() {
		sess := s.joined[0]
		for i := uint8(0); i < 10; i++ {
			sess.Send((&wire.SetWeather{Weather: i}).Append(nil), lane.Critical)
		}
		// A message larger than a datagram travels as fragments.
		big := make([]byte, 5000)
		for i := range big {
			big[i] = byte(i)
		}
		up := &wire.NetvarUpdate{}
		up.Payload = big
		if err := sess.Send(up.Append(nil), lane.Critical); err != nil {
			t.Error(err)
		}
	})
	got := col.wait(t, 11)
	for i := 0; i < 10; i++ {
		w, ok := got[i].(*wire.SetWeather)
		if !ok || w.Weather != uint8(i) || w.EventID != uint32(i+1) {
			t.Fatalf("event %d = %#v, want SetWeather %d", i, got[i], i)
		}
	}
	up, ok := got[10].(*wire.NetvarUpdate)
	if !ok || len(up.Payload) != 5000 || up.Payload[4999] != byte(4999%256) {
		t.Fatalf("event 11 = %T, want the 5000-byte NetvarUpdate reassembled", got[10])
	}
	if st := c.Stats(); st.Events != 11 || st.Lost != 0 {
		t.Fatalf("client stats %+v, want 11 events and none lost", st)
	}
	// The client acknowledged everything: the server's queue empties.
	deadline := time.Now().Add(5 * time.Second)
	for {
		var free int
		s.do(func() { free = s.joined[0].Free() })
		if free == transport.DefaultSendQueue {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server queue still holds %d events", transport.DefaultSendQueue-free)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestClientEventsReachTheServer(t *testing.T) {
	s := startServer(t)
	c := dial(t, s, nil)
	for i := uint32(1); i <= 20; i++ {
		if err := c.Touch(i); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Chat("hello"); err != nil {
		t.Fatal(err)
	}
	if err := c.SetSync(wire.PlayerSync{State: 1, X: 10, Y: 20, Z: 3, Health: 100}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		s.mu.Lock()
		touches, chats, syncs := 0, 0, 0
		var next uint32 = 1
		for _, p := range s.got {
			switch x := p.(type) {
			case *wire.PickupTouch:
				if x.PickupID != next {
					t.Fatalf("touch %d arrived where %d was due", x.PickupID, next)
				}
				next++
				touches++
			case *wire.ClientChat:
				if x.Text.String() != "hello" {
					t.Fatalf("chat %q", x.Text.String())
				}
				chats++
			case *wire.PlayerSync:
				syncs++
			}
		}
		s.mu.Unlock()
		if touches == 20 && chats == 1 && syncs > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server got %d touches, %d chats, %d syncs", touches, chats, syncs)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestCloseAndKick(t *testing.T) {
	s := startServer(t)
	a := dial(t, s, nil)
	b := dial(t, s, nil)
	a.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		s.mu.Lock()
		r, ok := s.left[a.PlayerID()]
		s.mu.Unlock()
		if ok {
			if r != wire.ReasonQuit {
				t.Fatalf("a left with %d, want quit", r)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server never saw a leave")
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.do(func() { s.joined[b.PlayerID()].Kick(wire.ReasonKicked) })
	select {
	case <-b.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("a kicked client did not end")
	}
	var de *client.DisconnectError
	if !errors.As(b.Err(), &de) || de.Reason != wire.ReasonKicked {
		t.Fatalf("b ended with %v, want kicked", b.Err())
	}
}

// TestInvalidEventNotAcked: a reliable packet that breaks the decoder's
// rules is dropped without an ack, and what follows waits behind it.
func TestInvalidEventNotAcked(t *testing.T) {
	s := startServer(t)
	col := newCollector()
	c := dial(t, s, col)
	s.do(func() {
		sess := s.joined[0]
		sess.Send((&wire.SetTime{Hours: 24}).Append(nil), lane.Critical) // the server's checks are bypassed here on purpose
		sess.Send((&wire.SetTime{Hours: 5}).Append(nil), lane.Critical)
	})
	time.Sleep(300 * time.Millisecond)
	if n := c.Stats().Invalid; n == 0 {
		t.Fatal("the invalid SetTime was not counted")
	}
	col.mu.Lock()
	n := len(col.ps)
	col.mu.Unlock()
	if n != 0 {
		t.Fatalf("%d events delivered past an invalid one", n)
	}
	var free int
	s.do(func() { free = s.joined[0].Free() })
	if free != transport.DefaultSendQueue-2 {
		t.Fatalf("server queue has %d free, want both events unacked", free)
	}
}

// TestLandedFollowsSpawn: after a SpawnPlayer, PlayerSync carries its
// event_id in landed.
func TestLandedFollowsSpawn(t *testing.T) {
	s := startServer(t)
	col := newCollector()
	c := dial(t, s, col)
	s.do(func() {
		s.joined[0].Send((&wire.SetWeather{Weather: 1}).Append(nil), lane.Critical)
		s.joined[0].Send((&wire.SpawnPlayer{X: 1, Y: 2, Z: 3, Health: 100}).Append(nil), lane.Critical)
	})
	col.wait(t, 2)
	if err := c.SetSync(wire.PlayerSync{State: 1, X: 1, Y: 2, Z: 3, Health: 100}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		s.mu.Lock()
		var landed uint32
		for _, p := range s.got {
			if ps, ok := p.(*wire.PlayerSync); ok {
				landed = ps.Landed
			}
		}
		s.mu.Unlock()
		if landed == 2 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("PlayerSync.landed = %d, want 2 (the SpawnPlayer's event_id)", landed)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
