package dissect

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"sync"
	"testing"
	"time"

	"dlmp/client"
	"dlmp/internal/lane"
	"dlmp/internal/transport"
	"dlmp/internal/wire"
)

// relay forwards datagrams between one client and the server through its
// own port, the one the test captures, and logs what it forwards as the
// client sees it.
type relay struct {
	front *endpoint // the port the client dials
	back  *net.UDPConn
	srv   netip.AddrPort

	mu     sync.Mutex
	client netip.AddrPort
}

func newRelay(t *testing.T, srv netip.AddrPort, log *flowLog) *relay {
	t.Helper()
	r := &relay{srv: srv}
	front, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	back, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	r.front = &endpoint{uc: front, addr: front.LocalAddr().(*net.UDPAddr).AddrPort()}
	r.back = back
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // client → server
		defer wg.Done()
		buf := make([]byte, 64<<10)
		for {
			n, from, err := front.ReadFromUDPAddrPort(buf)
			if err != nil {
				return
			}
			r.mu.Lock()
			r.client = from
			r.mu.Unlock()
			log.add(from, r.front.addr, buf[:n])
			back.WriteToUDPAddrPort(buf[:n], srv)
		}
	}()
	go func() { // server → client
		defer wg.Done()
		buf := make([]byte, 64<<10)
		for {
			n, _, err := back.ReadFromUDPAddrPort(buf)
			if err != nil {
				return
			}
			r.mu.Lock()
			to := r.client
			r.mu.Unlock()
			log.add(r.front.addr, to, buf[:n])
			front.WriteToUDPAddrPort(buf[:n], to)
		}
	}()
	t.Cleanup(func() { front.Close(); back.Close(); wg.Wait() })
	return r
}

// world answers the client: to a chat line, a ChatMessage, a NetvarUpdate
// too large for one datagram, a PickupSync and a PlayerMove.
type world struct {
	mu  sync.Mutex
	got map[string]int
	big []byte
}

func (w *world) Join(s *transport.Session, h *wire.ServerHello) bool {
	s.PlayerID = 7
	h.Hours, h.Minutes, h.Weather = 12, 30, 10
	return true
}

func (w *world) Packet(s *transport.Session, p wire.Packet, now time.Time) {
	w.mu.Lock()
	w.got[p.Name()]++
	w.mu.Unlock()
	if _, ok := p.(*wire.ClientChat); !ok {
		return
	}
	chat := &wire.ChatMessage{From: 7, Color: 0xFFCC00}
	chat.Text.Set("welcome to Grove Street")
	pickup := &wire.PickupSync{PickupID: 3, Active: 1, Model: 1240, X: 2495.5, Y: -1687.25, Z: 13.5, Scale: 1, Highlight: 1, Rev: 1}
	for _, m := range []struct {
		p     wire.Packet
		class lane.Class
	}{{chat, lane.Droppable}, {pickup, lane.Critical}} {
		b, err := wire.Marshal(m.p)
		if err != nil {
			panic(err) // a bug of this test's world
		}
		s.Send(b, m.class)
	}
	s.Send(w.big, lane.Critical)
	move := &wire.PlayerMove{Seq: 1, PlayerID: 8, State: 1, X: 2490, Y: -1680, Z: 13.5, Health: 100}
	s.SendUnreliable(move.Append(nil))
}

func (w *world) Leave(s *transport.Session, reason uint8) {}

func (w *world) count(name string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.got[name]
}

// TestSession captures a real connection of the client SDK to the server's
// transport — handshake with its cookie, both lanes, acks, fragments, the
// disconnect — and checks the dissection of every frame against the codecs.
func TestSession(t *testing.T) {
	tshark, dumpcap := tools(t)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))

	// A NetvarUpdate of 2500 payload bytes travels as three Fragments.
	big := []byte{wire.IDNetvarUpdate, 0, 0, 0, 0, 0xC4, 0x09}
	for i := range 2500 {
		big = append(big, byte(i*13))
	}
	w := &world{got: map[string]int{}, big: big}
	srv, err := transport.Listen(transport.Config{Listen: "127.0.0.1:0", Log: quiet}, w)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	ticked := make(chan struct{})
	go func() {
		defer close(ticked)
		tk := time.NewTicker(10 * time.Millisecond)
		defer tk.Stop()
		for {
			select {
			case <-stop:
				return
			case now := <-tk.C:
				srv.Tick(now)
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-ticked; srv.Close() })

	log := &flowLog{}
	r := newRelay(t, srv.Addr(), log)
	sink := listen(t, &flowLog{})
	marker := func(tag uint32) []byte {
		b := (&wire.ServerKeepalive{Echo: tag}).Append(nil)
		r.front.uc.WriteToUDPAddrPort(b, sink.addr)
		log.add(r.front.addr, sink.addr, b)
		return b
	}

	var mu sync.Mutex
	delivered := map[string]int{}
	traffic := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		c, err := client.Dial(ctx, client.Config{
			Server: r.front.addr.String(),
			Log:    quiet,
			OnPacket: func(p wire.Packet) {
				mu.Lock()
				delivered[p.Name()]++
				mu.Unlock()
			},
		})
		if err != nil {
			t.Fatalf("client.Dial through the relay: %v", err)
		}
		if err := c.SendUnreliable(&wire.NetvarSync{Attempt: 1}); err != nil {
			t.Fatal(err)
		}
		if err := c.SetSync(wire.PlayerSync{State: 1, X: 2495.5, Y: -1687.25, Z: 13.5, Heading: 90, Health: 100}); err != nil {
			t.Fatal(err)
		}
		for _, err := range []error{c.Chat("/tp grove street"), c.Touch(3), c.SendEvent(&wire.PlayerWaypoint{Active: 1, X: 1544.5, Y: -1675.25})} {
			if err != nil {
				t.Fatal(err)
			}
		}
		want := []string{"ChatMessage", "PickupSync", "NetvarUpdate", "PlayerMove"}
		deadline := time.Now().Add(20 * time.Second)
		for !all(&mu, delivered, want) || w.count("PickupTouch") == 0 || w.count("PlayerWaypoint") == 0 || w.count("PlayerSync") == 0 {
			if time.Now().After(deadline) {
				mu.Lock()
				defer mu.Unlock()
				t.Fatalf("after 20 s the client got %v (want %v) and the server %v", delivered, want, w.got)
			}
			time.Sleep(10 * time.Millisecond)
		}
		c.Close()
		// The relay logs the ClientDisconnect when it reads it.
		for log.count(wire.IDClientDisconnect) == 0 && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
	}
	pcap := record(t, dumpcap, r.front.addr.Port(), log, marker, traffic)
	path := writeTemp(t, "session.pcap", pcap)
	caps, err := readPcap(pcap)
	if err != nil {
		t.Fatal(err)
	}
	frames := dissect(t, tshark, path, "-d", fmt.Sprintf("udp.port==%d,dlmp", r.front.addr.Port()))
	if len(frames) != len(caps) {
		t.Fatalf("tshark read %d frames, the capture holds %d", len(frames), len(caps))
	}
	ch := newChecker(t)
	for i, d := range caps {
		ch.frame(i+1, d, frames[i])
	}
	for _, name := range []string{
		"ClientHello", "HelloRetry", "ServerHello", "NetvarSync", "PlayerSync", "ClientChat",
		"PickupTouch", "PlayerWaypoint", "ServerAck", "ClientAck", "ChatMessage", "PickupSync",
		"Fragment", "NetvarUpdate", "PlayerMove", "ClientDisconnect",
	} {
		if ch.seen[name] == 0 {
			t.Errorf("the session's capture has no %s; it has %v", name, names(ch.seen))
		}
	}
	if !hasMessage(ch.messages, 3) {
		t.Errorf("reassembled messages from frames %q, want one from 3 frames", ch.messages)
	}
	if len(ch.experts) != 0 {
		t.Errorf("expert infos %v in a clean session", ch.experts)
	}
	t.Logf("session: %d frames, packets %v", len(caps), names(ch.seen))
}

// all reports whether every name of want was delivered.
func all(mu *sync.Mutex, delivered map[string]int, want []string) bool {
	mu.Lock()
	defer mu.Unlock()
	for _, n := range want {
		if delivered[n] == 0 {
			return false
		}
	}
	return true
}
