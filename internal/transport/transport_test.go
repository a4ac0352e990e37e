package transport

import (
	"bytes"
	"encoding/binary"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// world is a Handler that records what the transport told it.
type world struct {
	mu      sync.Mutex
	full    bool
	next    uint16
	packets []wire.Packet
	left    map[uint16]uint8
	joined  []*Session
}

func (w *world) Join(s *Session, h *wire.ServerHello) bool {
	if w.full {
		return false
	}
	s.PlayerID = w.next
	w.next++
	h.Hours, h.Weather = 12, 3
	w.joined = append(w.joined, s)
	return true
}

func (w *world) Packet(s *Session, p wire.Packet, now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	// keep a copy: p is the transport's scratch value
	q := wire.New(p.ID())
	q.Parse(p.Append(nil))
	w.packets = append(w.packets, q)
}

func (w *world) Leave(s *Session, reason uint8) {
	if w.left == nil {
		w.left = map[uint16]uint8{}
	}
	w.left[s.PlayerID] = reason
}

// fixture is a server driven by a fake tick: the test calls tick to advance.
type fixture struct {
	t    *testing.T
	srv  *Server
	w    *world
	now  time.Time
	sent atomic.Uint64 // datagrams the clients wrote
}

func newFixture(t *testing.T, cfg Config) *fixture {
	t.Helper()
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	w := &world{}
	srv, err := Listen(cfg, w)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return &fixture{t: t, srv: srv, w: w, now: time.Now()}
}

// tick runs Tick once the reader has taken every datagram the clients
// wrote (loopback does not lose them).
func (f *fixture) tick(advance time.Duration) {
	deadline := time.Now().Add(5 * time.Second)
	for f.srv.Stats().DatagramsIn < f.sent.Load() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	f.now = f.now.Add(advance)
	f.srv.Tick(f.now)
}

// client is a minimal raw client over a real UDP socket.
type client struct {
	t     *testing.T
	f     *fixture
	uc    *net.UDPConn
	to    *net.UDPAddr
	nonce uint64
	token uint64
	hello wire.ServerHello
}

func dial(t *testing.T, f *fixture) *client {
	t.Helper()
	uc, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { uc.Close() })
	return &client{t: t, f: f, uc: uc, to: net.UDPAddrFromAddrPort(f.srv.Addr()), nonce: uint64(time.Now().UnixNano()) | 1}
}

func (c *client) write(d []byte) {
	c.t.Helper()
	if _, err := c.uc.WriteToUDP(d, c.to); err != nil {
		c.t.Fatal(err)
	}
	c.f.sent.Add(1)
}

// read returns the next datagram, or nil after wait.
func (c *client) read(wait time.Duration) []byte {
	buf := make([]byte, 2048)
	c.uc.SetReadDeadline(time.Now().Add(wait))
	n, _, err := c.uc.ReadFromUDP(buf)
	if err != nil {
		return nil
	}
	return buf[:n]
}

// packets splits a datagram.
func packets(t *testing.T, d []byte) []wire.Packet {
	t.Helper()
	var out []wire.Packet
	for len(d) > 0 {
		p := wire.New(d[0])
		if p == nil {
			t.Fatalf("unknown packet 0x%02X", d[0])
		}
		n, err := p.Parse(d)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
		d = d[n:]
	}
	return out
}

func (c *client) helloBytes(cookie [wire.CookieLen]byte) []byte {
	return (&wire.ClientHello{Magic: wire.ProtocolMagic, Version: Version, ClientNonce: c.nonce, Cookie: cookie}).Append(nil)
}

// connect runs the handshake, ticking the fixture.
func (c *client) connect(f *fixture) {
	c.t.Helper()
	c.write(c.helloBytes([wire.CookieLen]byte{}))
	d := c.read(2 * time.Second)
	var retry wire.HelloRetry
	if _, err := retry.Parse(d); err != nil {
		c.t.Fatalf("answer to a first hello: %x (%v), want HelloRetry", d, err)
	}
	c.write(c.helloBytes(retry.Cookie))
	f.tick(0)
	d = c.read(2 * time.Second)
	if _, err := c.hello.Parse(d); err != nil {
		c.t.Fatalf("answer to a hello with a cookie: %x (%v), want ServerHello", d, err)
	}
	if err := c.hello.CheckRecv(); err != nil {
		c.t.Fatal(err)
	}
	c.token = c.hello.SessionToken
}

func (c *client) keepalive(ping uint32) {
	c.write((&wire.ClientKeepalive{Token: c.token, Ping: ping}).Append(nil))
}

func TestHandshake(t *testing.T) {
	f := newFixture(t, Config{})
	c := dial(t, f)
	c.write(c.helloBytes([wire.CookieLen]byte{}))
	retry := c.read(2 * time.Second)
	if len(retry) != wire.HelloRetryLen || len(retry) >= wire.ClientHelloLen {
		t.Fatalf("HelloRetry is %d bytes, want %d (< the %d-byte hello)", len(retry), wire.HelloRetryLen, wire.ClientHelloLen)
	}
	if f.srv.Sessions() != 0 {
		t.Fatal("a hello without a cookie created a session")
	}
	c2 := dial(t, f)
	c2.connect(f)
	if c2.token == 0 || c2.hello.ClientNonce != c2.nonce || c2.hello.Hours != 12 || c2.hello.Weather != 3 {
		t.Fatalf("ServerHello %+v", c2.hello)
	}
	if f.srv.Sessions() != 1 {
		t.Fatalf("%d sessions, want 1", f.srv.Sessions())
	}
	// The same hello again: the same session, the same ServerHello.
	var p wire.HelloRetry
	c2.write(c2.helloBytes([wire.CookieLen]byte{}))
	p.Parse(c2.read(2 * time.Second))
	c2.write(c2.helloBytes(p.Cookie))
	f.tick(0)
	var again wire.ServerHello
	again.Parse(c2.read(2 * time.Second))
	if again != c2.hello || f.srv.Sessions() != 1 {
		t.Fatalf("repeated hello: %+v, sessions %d; want the same session", again, f.srv.Sessions())
	}
}

// TestSpoofedCookie: a cookie made for another address (what a spoofer who
// sees its own traffic could obtain) does not open a session for this one.
func TestSpoofedCookie(t *testing.T) {
	f := newFixture(t, Config{})
	a, b := dial(t, f), dial(t, f)
	b.nonce = a.nonce
	a.write(a.helloBytes([wire.CookieLen]byte{}))
	var retry wire.HelloRetry
	retry.Parse(a.read(2 * time.Second))
	b.write(b.helloBytes(retry.Cookie)) // a's cookie from b's address
	f.tick(0)
	d := b.read(2 * time.Second)
	if len(d) != wire.HelloRetryLen || d[0] != wire.IDHelloRetry {
		t.Fatalf("a foreign cookie got %x, want a new HelloRetry", d)
	}
	if f.srv.Sessions() != 0 {
		t.Fatal("a foreign cookie opened a session")
	}
}

// TestNoAmplification: before the address is validated the server never
// sends more bytes than it received.
func TestNoAmplification(t *testing.T) {
	f := newFixture(t, Config{})
	c := dial(t, f)
	for i := 0; i < 20; i++ {
		c.nonce++
		c.write(c.helloBytes([wire.CookieLen]byte{}))
		c.read(time.Second)
	}
	bad := c.helloBytes([wire.CookieLen]byte{})
	binary.LittleEndian.PutUint16(bad[5:7], Version+1) // another version: a Disconnect
	c.write(bad)
	if d := c.read(time.Second); len(d) != wire.DisconnectLen || d[9] != wire.ReasonVersionMismatch {
		t.Fatalf("version mismatch answered %x", d)
	}
	garbage := bytes.Repeat([]byte{wire.IDClientHello}, 100) // a short hello: dropped
	c.write(garbage)
	if d := c.read(100 * time.Millisecond); d != nil {
		t.Fatalf("a malformed hello was answered: %x", d)
	}
	st := f.srv.Stats()
	if st.BytesOut > st.BytesIn || st.BytesOut == 0 {
		t.Fatalf("before validation: %d bytes out for %d in", st.BytesOut, st.BytesIn)
	}
	if st.Drops["bad_hello"] != 1 {
		t.Fatalf("bad_hello drops = %d, want 1", st.Drops["bad_hello"])
	}
}

func TestBadTokenAndAddressDropped(t *testing.T) {
	f := newFixture(t, Config{})
	c := dial(t, f)
	c.connect(f)
	other := dial(t, f)
	other.token = c.token + 1
	other.keepalive(1) // a wrong token
	other.token = c.token
	other.keepalive(2) // the right token from the wrong address
	f.tick(0)
	if d := other.read(200 * time.Millisecond); d != nil {
		t.Fatalf("a bad token or address was answered: %x", d)
	}
	st := f.srv.Stats()
	if st.Drops["bad_token"] != 1 || st.Drops["wrong_address"] != 1 {
		t.Fatalf("drops %v, want bad_token 1 and wrong_address 1", st.Drops)
	}
	c.keepalive(7)
	f.tick(0)
	var ka wire.ServerKeepalive
	if d := c.read(2 * time.Second); d == nil {
		t.Fatal("no answer to the right client's keepalive")
	} else if ps := packets(t, d); len(ps) == 0 {
		t.Fatal("empty datagram")
	} else {
		found := false
		for _, p := range ps {
			if k, ok := p.(*wire.ServerKeepalive); ok {
				ka, found = *k, true
			}
		}
		if !found || ka.Echo != 7 {
			t.Fatalf("keepalive answer %v, want ServerKeepalive echo 7", ps)
		}
	}
}

func TestTimeoutAndDisconnectReasons(t *testing.T) {
	f := newFixture(t, Config{Timeout: 3 * time.Second, Keepalive: time.Second})
	a, b := dial(t, f), dial(t, f)
	a.connect(f)
	b.connect(f)
	b.write((&wire.ClientDisconnect{Token: b.token, Reason: wire.ReasonQuit}).Append(nil))
	f.tick(0)
	if got := f.w.left[b.hello.PlayerID]; got != wire.ReasonQuit {
		t.Fatalf("b left with %d, want quit", got)
	}
	f.tick(4 * time.Second) // a said nothing for longer than the timeout
	var disc *wire.Disconnect
	for d := a.read(2 * time.Second); d != nil && disc == nil; d = a.read(500 * time.Millisecond) {
		for _, p := range packets(t, d) {
			if x, ok := p.(*wire.Disconnect); ok {
				disc = x
			}
		}
	}
	if disc == nil || disc.Reason != wire.ReasonTimeout || disc.Token != a.token {
		t.Fatalf("a got %+v, want Disconnect timeout with its token", disc)
	}
	if got := f.w.left[a.hello.PlayerID]; got != wire.ReasonTimeout || f.srv.Sessions() != 0 {
		t.Fatalf("a left with %d, sessions %d", got, f.srv.Sessions())
	}
	// A dead token is dropped from now on.
	a.keepalive(1)
	f.tick(0)
	if f.srv.Stats().Drops["bad_token"] != 1 {
		t.Fatal("the token of an ended session was not dropped")
	}
}

func TestCriticalOverflowDisconnects(t *testing.T) {
	f := newFixture(t, Config{SendQueue: 256})
	c := dial(t, f)
	c.connect(f)
	sess := f.w.joined[0]
	msg := (&wire.SetTime{Hours: 1}).Append(nil)
	var err error
	for i := 0; i < 300 && err == nil; i++ {
		err = sess.Send(msg, lane.Critical)
	}
	if !errors.Is(err, lane.ErrQueueFull) {
		t.Fatalf("Send past the capacity: %v, want ErrQueueFull", err)
	}
	if err := sess.Send(msg, lane.Critical); !errors.Is(err, ErrClosed) {
		t.Fatalf("Send on a closing session: %v", err)
	}
	f.tick(0)
	var disc *wire.Disconnect
	for d := c.read(2 * time.Second); d != nil && disc == nil; d = c.read(500 * time.Millisecond) {
		for _, p := range packets(t, d) {
			if x, ok := p.(*wire.Disconnect); ok {
				disc = x
			}
		}
	}
	if disc == nil || disc.Reason != wire.ReasonSendQueueFull {
		t.Fatalf("got %+v, want Disconnect send_queue_full", disc)
	}
	if f.w.left[c.hello.PlayerID] != wire.ReasonSendQueueFull {
		t.Fatal("the world was not told")
	}
}

func TestServerFull(t *testing.T) {
	f := newFixture(t, Config{})
	f.w.full = true
	c := dial(t, f)
	c.write(c.helloBytes([wire.CookieLen]byte{}))
	var retry wire.HelloRetry
	retry.Parse(c.read(2 * time.Second))
	c.write(c.helloBytes(retry.Cookie))
	f.tick(0)
	var d wire.Disconnect
	if _, err := d.Parse(c.read(2 * time.Second)); err != nil || d.Reason != wire.ReasonServerFull || d.Token != c.nonce {
		t.Fatalf("full server answered %+v (%v)", d, err)
	}
}

func TestRateCap(t *testing.T) {
	f := newFixture(t, Config{InboundRate: 50})
	c := dial(t, f)
	c.connect(f)
	for i := 0; i < 200; i++ {
		c.keepalive(uint32(i))
	}
	f.tick(0)
	if got := f.srv.Stats().Drops["rate"]; got < 100 {
		t.Fatalf("rate drops %d after 200 datagrams at a cap of 50/s", got)
	}
}

func TestEventsInOrderAndStale(t *testing.T) {
	f := newFixture(t, Config{})
	c := dial(t, f)
	c.connect(f)
	touch := func(id uint32) []byte {
		return (&wire.PickupTouch{Token: c.token, EventID: id, PickupID: 100 + id}).Append(nil)
	}
	sync := func(seq uint32) []byte {
		return (&wire.PlayerSync{Token: c.token, Seq: seq, State: 1, Health: 100}).Append(nil)
	}
	// One datagram: event 2 (future: dropped), event 1, event 1 again (dup), sync 5, sync 4 (stale).
	var d []byte
	for _, p := range [][]byte{touch(2), touch(1), touch(1), sync(5), sync(4)} {
		d = append(d, p...)
	}
	c.write(d)
	f.tick(0)
	c.write(touch(2))
	f.tick(0)
	var got []string
	for _, p := range f.w.packets {
		switch x := p.(type) {
		case *wire.PickupTouch:
			got = append(got, "touch", string(rune('0'+x.EventID)))
		case *wire.PlayerSync:
			got = append(got, "sync", string(rune('0'+x.Seq)))
		}
	}
	want := []string{"touch", "1", "sync", "5", "touch", "2"}
	if len(got) != len(want) {
		t.Fatalf("world got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("world got %v, want %v", got, want)
		}
	}
	if f.srv.Stats().Drops["stale"] != 1 {
		t.Fatalf("stale drops %d, want 1", f.srv.Stats().Drops["stale"])
	}
	// The client was acknowledged up to event 2.
	var ack *wire.ServerAck
	for d := c.read(2 * time.Second); d != nil; d = c.read(200 * time.Millisecond) {
		for _, p := range packets(t, d) {
			if x, ok := p.(*wire.ServerAck); ok {
				ack = x
			}
		}
	}
	if ack == nil || ack.Ack != 2 {
		t.Fatalf("last ServerAck %+v, want ack 2", ack)
	}
}

func TestReliableDelivery(t *testing.T) {
	f := newFixture(t, Config{})
	c := dial(t, f)
	c.connect(f)
	sess := f.w.joined[0]
	for h := uint8(0); h < 5; h++ {
		if err := sess.Send((&wire.SetTime{Hours: h}).Append(nil), lane.Critical); err != nil {
			t.Fatal(err)
		}
	}
	f.tick(0)
	var got []uint32
	for d := c.read(2 * time.Second); d != nil; d = c.read(200 * time.Millisecond) {
		for _, p := range packets(t, d) {
			if x, ok := p.(*wire.SetTime); ok {
				got = append(got, x.EventID)
				if uint32(x.Hours)+1 != x.EventID {
					t.Fatalf("event %d carries hours %d", x.EventID, x.Hours)
				}
			}
		}
	}
	if len(got) != 5 || got[0] != 1 || got[4] != 5 {
		t.Fatalf("event ids %v, want 1..5", got)
	}
	if sess.Free() != DefaultSendQueue-5 {
		t.Fatalf("Free() = %d before the ack, want %d", sess.Free(), DefaultSendQueue-5)
	}
	c.write((&wire.ClientAck{Token: c.token, Ack: 5}).Append(nil))
	f.tick(0)
	if sess.Free() != DefaultSendQueue {
		t.Fatalf("Free() = %d after the ack, want %d", sess.Free(), DefaultSendQueue)
	}
}
