// Package client is the dlmp client SDK: the reference implementation of the
// client side of docs/protocol.md, used by the tests, the bots and the tools.
//
// A Client is configured with a Config (every field but Server has a useful
// zero value) and connected with Dial, in the manner of http.Server:
//
//	c, err := client.Dial(ctx, client.Config{Server: "127.0.0.1:7777"})
//	if err != nil { ... }
//	defer c.Close()
//	c.SetPosition(x, y, z, heading) // what the next PlayerSync carries
//	c.Touch(pickupID)               // a PickupTouch on the Go-Back-N lane
//
// Dial performs the handshake (ClientHello, HelloRetry with its cookie,
// ServerHello). The client then runs one loop goroutine that owns the lanes:
// it reads datagrams, applies the client decoder's rules (a reliable packet
// that breaks one is dropped without an ack), delivers reliable events in
// order and once, keeps unreliable snapshots only when newer, and every tick
// sends ClientAck, the Go-Back-N events due, PlayerSync and keepalives.
//
// The client keeps a mirror of the world (World, package client/mirror):
// every event and fresh snapshot is applied to it. From the position that
// PlayerSync carries, the client detects pickup touches itself (on the
// outside → inside transition, retried at a low rate while inside, never
// once per frame) and sends PickupTouch; it answers SetWaypoint and reports
// map waypoint changes (SetMapWaypoint) with PlayerWaypoint.
//
// Config.OnPacket, OnNetvar and OnTick run on that loop goroutine (or a
// Ticker's at its ticks, when Config.Ticker shares one among many clients:
// a slow callback then holds up the Ticker's other clients), one at a time, never while the client's lock is held, so they may call the
// Client's methods but Close; they must not block for long. Every exported
// method is safe for concurrent use.
package client

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"sync"
	"syscall"
	"time"

	"dlmp/client/mirror"
	"dlmp/internal/conn"
	"dlmp/internal/lane"
	"dlmp/internal/netvar"
	"dlmp/internal/wire"
)

// Version is the protocol version the client speaks.
const Version = 1

// Hello timing (docs/protocol.md, Connection lifecycle).
const (
	HelloInterval = 500 * time.Millisecond
	HelloTries    = 10
	RetryTries    = 3
	// RTTProbe: besides the keepalives the protocol asks for, the client
	// sends a ClientKeepalive this often to measure the round trip (RTT).
	RTTProbe = time.Second
)

// Config configures a Client.
type Config struct {
	// Server is the server's game address, "host:port".
	Server string
	// SyncRate is how many PlayerSync packets per second the client sends
	// while it has a position; 0 = the rate the server asks for
	// (ServerHello.sync_hz), which is also the client's tick.
	SyncRate int
	// OnPacket receives every reliable event in order and once (after the
	// decoder's checks; fragments reassembled) and every unreliable
	// snapshot newer than the last of its entity. The packet is the
	// handler's to keep.
	OnPacket func(p wire.Packet)
	// OnDisconnect is called once when the connection ends, with the
	// reason (a wire.Reason*; 0 when the client closed it) and the error.
	OnDisconnect func(reason uint8, err error)
	// Log receives warnings; slog.Default() when nil.
	Log *slog.Logger
	// Netvars registers this client's network vars (the shared
	// registration code) into a registry of its own; nil registers none
	// (every var is then a synthetic entry built from the manifest).
	Netvars func(r *netvar.Registry)
	// OnNetvar receives every change of a var the client holds, on the
	// loop goroutine, like OnPacket.
	OnNetvar func(ch NetvarChange)
	// OnTick runs on the loop goroutine at each of the client's ticks (the
	// hello's sync_hz), before the tick builds its PlayerSync, outside
	// the client's lock: the place of a game's frame to SetSync its
	// position, so that a program of many clients (the bots) needs no timer
	// of its own per client.
	OnTick func(now time.Time)
	// Ticker, when set, ticks the client instead of a timer of its own
	// (one timer and one goroutine for many clients): OnTick, the tick's
	// sends, and OnPacket and OnNetvar for what is pending at the tick then
	// run on the Ticker's goroutine, at its period (the rest on the loop
	// goroutine, as without a Ticker).
	// Either way, one client's callbacks never run at the same time, and
	// none runs after Close returned.
	Ticker *Ticker
}

// ErrClosed is returned after the connection ended.
var ErrClosed = errors.New("client: connection closed")

// DisconnectError is the error of a connection the server ended.
type DisconnectError struct{ Reason uint8 }

func (e *DisconnectError) Error() string {
	return fmt.Sprintf("client: disconnected by the server: %s", wire.ReasonName(e.Reason))
}

// Client is one connection to a server.
type Client struct {
	// immutable after Dial
	cfg    Config
	uc     *net.UDPConn
	rc     *conn.Conn // uc, read in batches by the reader
	server netip.AddrPort
	hello  wire.ServerHello
	done   chan struct{}
	kick   chan struct{} // the reader wakes the loop to drain
	reads  int           // recvmmsg calls (read_linux.go); the reader's
	wg     sync.WaitGroup
	wmu    sync.Mutex // serializes flushOut
	cb     sync.Mutex // serializes the ticks and the callbacks (loop.go)

	mu        sync.Mutex // guards everything below
	recv      *lane.Receiver
	gbn       *lane.GBNSender
	split     wire.Splitter
	sync      wire.PlayerSync
	hasSync   bool
	lastSync  time.Time // when the last PlayerSync was due (its schedule, not its send)
	lastSent  time.Time
	lastHeard time.Time
	rttPing   time.Time
	rtt       time.Duration
	world     *mirror.Mirror // the world as this client sees it
	touches   []uint32       // scratch
	expect    uint32         // the event_id the next delivered message should carry
	landed    uint32         // event_id of the last SpawnPlayer, RespawnPlayer or TeleportPlayer
	synced    bool           // SetSync was called since the last landing: its position is current
	stats     Stats
	err       error
	reason    uint8
	pending   []wire.Packet   // to hand to OnPacket after unlocking
	events    wire.Splitter   // reliable events are parsed into its values, reused per id
	move      wire.PlayerMove // the PlayerMoves' path parses into it (moves.go)
	out       [][]byte        // datagrams to write after unlocking
	written   [][]byte        // the slice of the last out written, reused
	spare     [][]byte        // written datagram buffers for send to reuse
	tickBuf   []byte          // the tick's datagram, built here and copied by send
	nv        netvarState     // network vars (netvars.go)
}

// Stats counts what the client sent, received and dropped.
type Stats struct {
	DatagramsIn, DatagramsOut int
	BytesIn, BytesOut         int
	Events                    int // reliable events delivered
	Lost                      int // event ids skipped in delivery: always 0 unless the lane is broken
	Touches                   int // PickupTouch events the client detected and sent
	Invalid                   int // reliable packets dropped by the decoder rules, without an ack
	Stale                     int // unreliable snapshots not newer than the last
	Unknown                   int // datagram tails that could not be delimited
	Refused                   int // reads failed by an ICMP port unreachable (transient)
}

// Dial connects to cfg.Server: the handshake with retries, then the loop.
// It returns when ServerHello arrived, the server refused, or ctx ended.
func Dial(ctx context.Context, cfg Config) (*Client, error) {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	addr, err := net.ResolveUDPAddr("udp", cfg.Server)
	if err != nil {
		return nil, fmt.Errorf("client: server address %q: %w", cfg.Server, err)
	}
	network := "udp4"
	if addr.IP.To4() == nil {
		network = "udp6"
	}
	// A connected socket: the kernel keeps the route for the sends
	// (write instead of sendto, no address per datagram) and drops what
	// another address sends. An ICMP port unreachable then fails a later
	// read or write with ECONNREFUSED, which the client takes as transient
	// (refused): the server-silent timeout still decides.
	uc, err := net.DialUDP(network, nil, addr)
	if err != nil {
		return nil, fmt.Errorf("client: %w", err)
	}
	ap := addr.AddrPort()
	c := &Client{cfg: cfg, uc: uc, server: netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), done: make(chan struct{}), kick: make(chan struct{}, 1)}
	rest, err := c.handshake(ctx)
	if err != nil {
		uc.Close()
		return nil, err
	}
	if c.rc, err = conn.Wrap(uc); err != nil {
		uc.Close()
		return nil, fmt.Errorf("client: %w", err)
	}
	now := time.Now()
	c.recv = lane.NewReceiver(c.hello.SessionToken, 0)
	c.world = mirror.New(&c.hello, now)
	c.initNetvars()
	c.expect = 1
	c.gbn = c.newGBN()
	c.lastSent, c.lastHeard = now, now
	if len(rest) > 0 { // packets that shared the datagram with ServerHello
		c.receiveLocked(rest, now)
	}
	c.wg.Add(2)
	go c.readLoop()
	go c.loop()
	if cfg.Ticker != nil {
		cfg.Ticker.add(c)
	}
	return c, nil
}

// handshake sends ClientHello until ServerHello, following HelloRetry. It
// returns what followed ServerHello in its datagram.
func (c *Client) handshake(ctx context.Context) ([]byte, error) {
	var nb [8]byte
	for {
		rand.Read(nb[:])
		if binary.LittleEndian.Uint64(nb[:]) != 0 {
			break
		}
	}
	hello := wire.ClientHello{Magic: wire.ProtocolMagic, Version: Version, ClientNonce: binary.LittleEndian.Uint64(nb[:])}
	buf := make([]byte, 2048)
	retries := 0
	for try := 0; try < HelloTries; try++ {
		if _, err := c.uc.Write(hello.Append(nil)); err != nil && !refused(err) {
			return nil, fmt.Errorf("client: hello: %w", err)
		}
		deadline := time.Now().Add(HelloInterval)
		if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
			deadline = d
		}
		for {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("client: connecting to %s: %w", c.server, err)
			}
			c.uc.SetReadDeadline(deadline)
			n, from, err := c.uc.ReadFromUDPAddrPort(buf)
			if refused(err) {
				continue // an earlier hello found no server yet: wait for the deadline
			}
			if err != nil {
				if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
					// ctx's timer may not have fired yet: without this, the
					// tries left would all run out at once.
					return nil, fmt.Errorf("client: connecting to %s: %w", c.server, context.DeadlineExceeded)
				}
				break // next try
			}
			if from != c.server || n == 0 {
				continue
			}
			d := buf[:n]
			switch d[0] {
			case wire.IDHelloRetry:
				var r wire.HelloRetry
				if _, err := r.Parse(d); err != nil || r.CheckRecv() != nil || r.ClientNonce != hello.ClientNonce {
					continue
				}
				if retries++; retries > RetryTries {
					return nil, fmt.Errorf("client: connecting to %s: more than %d HelloRetry", c.server, RetryTries)
				}
				hello.Cookie = r.Cookie
				try-- // an answer is not a lost try
				goto next
			case wire.IDServerHello:
				var h wire.ServerHello
				n, err := h.Parse(d)
				if err != nil || h.CheckRecv() != nil || h.ClientNonce != hello.ClientNonce || h.Version != Version {
					continue
				}
				c.hello = h
				c.uc.SetReadDeadline(time.Time{})
				return append([]byte(nil), d[n:]...), nil
			case wire.IDDisconnect:
				var x wire.Disconnect
				if _, err := x.Parse(d); err != nil || x.CheckRecv() != nil || x.Token != hello.ClientNonce {
					continue
				}
				return nil, &DisconnectError{Reason: x.Reason}
			}
		}
	next:
	}
	return nil, fmt.Errorf("client: no answer from %s after %d hellos", c.server, HelloTries)
}

// refused reports whether err is the ECONNREFUSED of the connected socket:
// an ICMP port unreachable that answered an earlier datagram (the server
// not up yet, or restarting). It is transient; the handshake's tries and
// the server-silent timeout decide.
func refused(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }

// World runs f with the client's mirror of the world (package
// client/mirror), under the client's lock: f must not keep m nor call the
// Client's methods.
func (c *Client) World(f func(m *mirror.Mirror)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f(c.world)
}

// Hello is the ServerHello the connection started with.
func (c *Client) Hello() wire.ServerHello { return c.hello }

// PlayerID is the client's own player id.
func (c *Client) PlayerID() uint16 { return c.hello.PlayerID }

// LocalAddr is the client's UDP address.
func (c *Client) LocalAddr() netip.AddrPort { return c.uc.LocalAddr().(*net.UDPAddr).AddrPort() }

// Stats returns the counters.
func (c *Client) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// RTT is the last keepalive round trip (0 before the first).
func (c *Client) RTT() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rtt
}

// Err is why the connection ended, or nil while it runs.
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Done is closed when the connection ends.
func (c *Client) Done() <-chan struct{} { return c.done }

// Close sends ClientDisconnect quit and stops the client.
func (c *Client) Close() error {
	c.mu.Lock()
	if c.err == nil {
		c.uc.Write((&wire.ClientDisconnect{Token: c.hello.SessionToken, Reason: wire.ReasonQuit}).Append(nil))
	}
	c.endLocked(0, ErrClosed)
	c.mu.Unlock()
	c.wg.Wait()
	c.cb.Lock() // waits for a Ticker's tick of c in progress; the next sees c ended
	//lint:ignore SA2001 the lock is the wait
	c.cb.Unlock()
	return nil
}
