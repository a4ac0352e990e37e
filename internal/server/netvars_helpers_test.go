package server

import (
	"bytes"
	"context"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"dlmp/client"
	"dlmp/internal/config"
	"dlmp/internal/netvar"
	"dlmp/internal/wire"
	"dlmp/internal/world"
)

// tap is a UDP relay between one client and the server that keeps a copy
// of every datagram the server sends to the client: what a capture on the
// client's socket would see.
type tap struct {
	front *net.UDPConn // the client talks to this
	back  *net.UDPConn // connected to the server

	// holdSync drops the client's NetvarSync announces while set.
	holdSync atomic.Bool
	// syncs counts the client's PlayerSyncs.
	syncs atomic.Int64

	mu     sync.Mutex
	client *net.UDPAddr
	down   [][]byte // server → client datagrams
}

func newTap(t *testing.T, server string) *tap {
	t.Helper()
	front, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	raddr, err := net.ResolveUDPAddr("udp4", server)
	if err != nil {
		t.Fatal(err)
	}
	back, err := net.DialUDP("udp4", nil, raddr)
	if err != nil {
		t.Fatal(err)
	}
	tp := &tap{front: front, back: back}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // client → server
		defer wg.Done()
		buf := make([]byte, 2048)
		for {
			n, from, err := front.ReadFromUDP(buf)
			if err != nil {
				return
			}
			tp.mu.Lock()
			tp.client = from
			tp.mu.Unlock()
			if n > 0 && buf[0] == wire.IDNetvarSync && tp.holdSync.Load() {
				continue
			}
			tp.syncs.Add(int64(playerSyncs(buf[:n])))
			back.Write(buf[:n])
		}
	}()
	go func() { // server → client
		defer wg.Done()
		buf := make([]byte, 2048)
		for {
			n, err := back.Read(buf)
			if err != nil {
				return
			}
			tp.mu.Lock()
			tp.down = append(tp.down, bytes.Clone(buf[:n]))
			to := tp.client
			tp.mu.Unlock()
			if to != nil {
				front.WriteToUDP(buf[:n], to)
			}
		}
	}()
	t.Cleanup(func() {
		front.Close()
		back.Close()
		wg.Wait()
	})
	return tp
}

func (tp *tap) addr() string { return tp.front.LocalAddr().String() }

// datagrams returns a copy of the list of captured datagrams.
func (tp *tap) datagrams() [][]byte {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return append([][]byte(nil), tp.down...)
}

// containsBits reports whether marker occurs in d at any bit offset: the
// netvar payload is bit-packed (least-significant bit first), so a value
// need not start on a byte.
func containsBits(d, marker []byte) bool {
	if bytes.Contains(d, marker) {
		return true
	}
	sh := make([]byte, len(d))
	for s := uint(1); s < 8; s++ {
		for i := range d {
			b := d[i] >> s
			if i+1 < len(d) {
				b |= d[i+1] << (8 - s)
			}
			sh[i] = b
		}
		if bytes.Contains(sh[:max(len(d)-1, 0)], marker) {
			return true
		}
	}
	return false
}

// startNetvars runs a server whose registry reg() fills, on a loopback
// port, with pvs as its StreamedTo (nil keeps the distance predicate).
func startNetvars(t *testing.T, reg func(r *netvar.Registry), pvs func(netvar.Ref) []netvar.PlayerID) *Server {
	t.Helper()
	cfg := config.Default()
	cfg.Server.Listen = "127.0.0.1:0"
	cfg.Server.TickHz = 50
	cfg.Admin.Listen = ""
	r := netvar.NewRegistry()
	reg(r)
	srv, err := New(Options{Config: cfg, Netvars: r}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if pvs != nil {
		srv.nv.pvs = pvs
	}
	runServer(t, srv)
	return srv
}

// runServer runs srv until the test ends.
func runServer(t *testing.T, srv *Server) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
}

// peer is one test client behind its tap, with the reassembled netvar
// payloads it received.
type peer struct {
	c   *client.Client
	tap *tap

	mu       sync.Mutex
	payloads [][]byte // NetvarManifest, NetvarResync, NetvarUpdate payloads
	kinds    []byte   // their packet ids
	changes  []client.NetvarChange
}

func dialPeer(t *testing.T, srv *Server, reg func(r *netvar.Registry)) *peer {
	t.Helper()
	return dialPeerHolding(t, srv, reg, false)
}

// dialPeerHolding is dialPeer with the client's Sync announces dropped
// from the start when hold is set (tap.holdSync).
func dialPeerHolding(t *testing.T, srv *Server, reg func(r *netvar.Registry), hold bool) *peer {
	t.Helper()
	tp := newTap(t, srv.Addr())
	tp.holdSync.Store(hold)
	p := &peer{tap: tp}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := client.Dial(ctx, client.Config{
		Server:  tp.addr(),
		Netvars: reg,
		OnPacket: func(pk wire.Packet) {
			var payload []byte
			switch x := pk.(type) {
			case *wire.NetvarManifest:
				payload = x.Payload
			case *wire.NetvarResync:
				payload = x.Payload
			case *wire.NetvarUpdate:
				payload = x.Payload
			default:
				return
			}
			p.mu.Lock()
			p.payloads = append(p.payloads, bytes.Clone(payload))
			p.kinds = append(p.kinds, pk.ID())
			p.mu.Unlock()
		},
		OnNetvar: func(ch client.NetvarChange) {
			p.mu.Lock()
			p.changes = append(p.changes, ch)
			p.mu.Unlock()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	p.c = c
	t.Cleanup(func() { c.Close() })
	return p
}

func (p *peer) id() netvar.PlayerID { return netvar.PlayerID(p.c.PlayerID()) }

// received returns copies of the payload list and their packet ids.
func (p *peer) received() ([][]byte, []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([][]byte(nil), p.payloads...), append([]byte(nil), p.kinds...)
}

// eventually polls cond until it holds or the deadline passes. The link
// is real UDP: there is no virtual clock to advance.
func eventually(t *testing.T, d time.Duration, what string, cond func() (bool, string)) {
	t.Helper()
	if why := poll(d, cond); why != "" {
		t.Fatalf("%s: %s", what, why)
	}
}

// poll is eventually without the verdict: "" when cond came to hold,
// else its last reason.
func poll(d time.Duration, cond func() (bool, string)) string {
	deadline := time.Now().Add(d)
	for {
		ok, why := cond()
		if ok {
			return ""
		}
		if time.Now().After(deadline) {
			return why
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// do runs f on the world goroutine with the store and the time.
func do(t *testing.T, srv *Server, f func(st *netvar.Store, now time.Time)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Do(ctx, func(*world.World) { f(srv.Netvars(), time.Now()) }); err != nil {
		t.Fatal(err)
	}
}

func waitReady(t *testing.T, ps ...*peer) {
	t.Helper()
	eventually(t, 5*time.Second, "manifest", func() (bool, string) {
		for _, p := range ps {
			if !p.c.NetvarsReady() {
				return false, "a client has no manifest"
			}
		}
		return true, ""
	})
}
