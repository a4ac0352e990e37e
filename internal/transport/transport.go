// Package transport is the server side of the dlmp connection: the UDP
// socket loops, the handshake with its stateless address validation, the
// sessions (keyed by session_token, bound to the source address), and the
// lanes of each session (package lane) — everything between datagrams and
// the world's Join/Packet/Leave calls.
//
// Goroutines and ownership:
//
//   - the reader goroutine reads batches of datagrams, answers ClientHello
//     statelessly (HelloRetry with a cookie, Disconnect for a wrong version),
//     checks every other datagram's token and source address against the
//     session table, applies the per-connection rate cap, and hands the
//     survivors to the tick through a bounded queue. What it refuses it
//     drops and counts; it never answers a datagram with a bad token.
//   - the tick goroutine (the world's) calls Server.Tick: it drains the
//     queue, runs every session's lanes and timers, calls the Handler, and
//     builds the outbound datagrams. Sessions' lane state belongs to it.
//   - the writer goroutine writes the tick's datagrams in batches.
//
// The session table is the only state shared between the reader and the
// tick; it is guarded by mu. Counters are atomic.
package transport

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"dlmp/internal/conn"
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// Version is the protocol version this server speaks (docs/protocol.md).
const Version = 1

// Defaults of Config's zero fields.
const (
	DefaultTickHz       = 20 // the world's ticks per second when a Config leaves it 0; dlmp serve passes server.tick_hz (default 50)
	DefaultSyncHz       = 20 // the PlayerSync rate, sent in ServerHello
	DefaultKeepalive    = time.Second
	DefaultTimeout      = 10 * time.Second
	DefaultSendQueue    = 4096
	DefaultInboundRate  = 500  // datagrams per second per connection
	DefaultInboundQueue = 8192 // datagrams waiting for the tick, all sessions
	// UnconfirmedTTL is how long a session may wait for its first packet
	// carrying its token (docs/protocol.md, Connection lifecycle).
	UnconfirmedTTL = 10 * time.Second
	// ArrivedEvery bounds how often the reader signals Arrived: each signal
	// wakes the world's goroutine, and datagrams come one by one
	// (decisions 0201, 0339).
	ArrivedEvery = 2 * time.Millisecond
	// ReadPace is how long the reader waits after a read that did not fill
	// half a batch: the datagrams that arrive meanwhile are read by the next
	// call together. 1000 clients at 20 Hz send ~20 datagrams a millisecond;
	// read as they come, most reads found one or two, and the reads with
	// their wake-ups were a quarter of the server's CPU
	// (docs/decisions/0247-read-pace.md); each wake-up of the reader and of
	// the world's goroutine costs the Go scheduler and the kernel more than
	// the read. 5 ms halved the wake-ups but moved the datagrams' handling
	// into the tick, and the tick's p99 with it (decision 0339).
	ReadPace = 1 * time.Millisecond
	// ReadLead: the reader cuts its wait short to read ReadLead before the
	// next tick is due, so that the tick finds what came until then
	// (decision 0339).
	ReadLead = 500 * time.Microsecond
	// CookieWindow is the life of an address-validation cookie's window; a
	// cookie verifies in its window and the next.
	CookieWindow = 30 * time.Second
)

// Environment variables that set Config.ReadPace and Config.ArrivedEvery
// when those are zero (a Go duration, "1ms"): for A/B load runs of the
// scheduling cost without a new flag (decision 0339).
const (
	ReadPaceEnv     = "DLMP_READ_PACE"
	ArrivedEveryEnv = "DLMP_ARRIVED_EVERY"
	// WarmSlotsEnv = "1" sets Config.WarmSlots (decision 0374, amended:
	// off by default, kept for A/B load runs).
	WarmSlotsEnv = "DLMP_WARM_SLOTS"
)

// envDuration reads a positive duration from the environment variable
// name, or returns def when it is unset or not one.
func envDuration(name string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(os.Getenv(name)); err == nil && d > 0 {
		return d
	}
	return def
}

// ackDelay is the longest a client holds an ack of the server's events:
// one of its ticks (1 / sync_hz: it acks once a tick, decision 0423) and
// lane.AckSlack. The sessions' retransmission timers add it to the RTT (the
// samples have the client's hold removed); lane's default of 40 ms is
// shorter than a 20 Hz client's tick, which only a server ticking at 20 Hz
// itself, checking its timers every 50 ms, hid.
func (c *Config) ackDelay() time.Duration {
	hz := c.SyncHz
	if hz <= 0 {
		hz = DefaultSyncHz // as fill does: tests' fixtures build a Server without it
	}
	return lane.AckDelayOf(time.Second / time.Duration(hz))
}

// Config configures a Server. Zero fields take the defaults above.
type Config struct {
	Listen       string // UDP address, ":7777"
	TickHz       int    // the world's ticks per second, which the reader paces itself by; DefaultTickHz when 0
	SyncHz       int    // the PlayerSync rate sent in ServerHello; DefaultSyncHz when 0
	MaxPlayers   int    // sent in ServerHello; 1000 when 0
	Keepalive    time.Duration
	Timeout      time.Duration
	SendQueue    int // reliable events per session
	InboundRate  int // datagrams per second per session before drops
	InboundQueue int
	ReadPace     time.Duration // the reader's wait after a thin read; ReadPace when 0, none when negative
	ArrivedEvery time.Duration // the least time between two Arrived signals; ArrivedEvery when 0
	// WarmSlots makes Receive load the reliable-lane slots its acks freed
	// (decision 0374): off unless set or DLMP_WARM_SLOTS=1, since the load
	// runs showed the pushes' stores no cheaper for it.
	WarmSlots bool
	// WriterFIFO, when above 0, locks the writer goroutine to an OS thread
	// and runs that thread in the real-time class SCHED_FIFO at this
	// priority (1..99; decision 0426), so that the tick's datagrams go out
	// as soon as they are handed over instead of waiting behind ordinary
	// threads. It needs CAP_SYS_NICE; without it the writer logs a warning
	// and stays in the ordinary class.
	WriterFIFO int
	Log        *slog.Logger
}

func (c *Config) fill() {
	if c.TickHz == 0 {
		c.TickHz = DefaultTickHz
	}
	if c.SyncHz == 0 {
		c.SyncHz = DefaultSyncHz
	}
	if c.MaxPlayers == 0 {
		c.MaxPlayers = 1000
	}
	if c.Keepalive == 0 {
		c.Keepalive = DefaultKeepalive
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.SendQueue == 0 {
		c.SendQueue = DefaultSendQueue
	}
	if c.InboundRate == 0 {
		c.InboundRate = DefaultInboundRate
	}
	if c.InboundQueue == 0 {
		c.InboundQueue = DefaultInboundQueue
	}
	if c.ReadPace == 0 {
		c.ReadPace = envDuration(ReadPaceEnv, ReadPace)
	}
	if c.ArrivedEvery <= 0 {
		c.ArrivedEvery = envDuration(ArrivedEveryEnv, ArrivedEvery)
	}
	if !c.WarmSlots {
		c.WarmSlots = os.Getenv(WarmSlotsEnv) == "1"
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
}

// Handler is the world, as the transport sees it. Every method is called
// on the tick goroutine, from inside Tick.
type Handler interface {
	// Join admits a session whose address is validated: it sets the
	// session's PlayerID and fills the world part of the ServerHello (player
	// id, clock, weather, garage doors), or returns false when the server is
	// full.
	Join(s *Session, hello *wire.ServerHello) bool
	// Packet delivers one accepted client packet: a Go-Back-N event in order
	// and once, after its stateless checks (CheckRecv) passed; a PlayerSync
	// newer than the session's last; a network-vars request. The packet is
	// valid during the call only.
	Packet(s *Session, p wire.Packet, now time.Time)
	// Leave is called once when a session that Join admitted ends.
	Leave(s *Session, reason uint8)
}

// Server is the transport's server side.
type Server struct {
	// immutable after New
	cfg     Config
	conn    *conn.Conn
	handler Handler
	secret  [32]byte
	stats   Stats

	mu      sync.RWMutex
	byToken map[uint64]*Session // guarded by mu; written by the tick only

	inbound chan inbound  // reader → tick
	arrived chan struct{} // reader → tick: something was queued since the last signal
	pool    sync.Pool     // *buffer
	poolNew atomic.Uint64 // buffers the pool made

	out       chan *batch   // tick and reader → writer
	freeB     chan *batch   // the reader's batches, written
	freeT     chan *batch   // the tick's batches, written (tickState.getBatch)
	pending   atomic.Int64  // batches handed to the writer, not yet written
	written   atomic.Uint64 // the seq of the last tick batch written (or a later one); the tick reads it
	writerTID atomic.Int64  // the writer's thread id once it runs real-time (Config.WriterFIFO), else 0
	nextTick  atomic.Int64  // when the next tick is due (Unix ns; 0: unknown): the reader reads before it

	// owned by the tick goroutine
	tick tickState

	// owned by the writer goroutine
	iov  [][]byte              // the gather lists' pieces of the batch being written (gatherBufs)
	flat [conn.MaxBatch][]byte // the gather messages of one sendmmsg, copied (write)

	closeOnce sync.Once
	done      chan struct{}
	wg        sync.WaitGroup
}

// buffer holds one datagram on its way through a queue.
type buffer [wire.MaxDatagram]byte

// inbound is one datagram for the tick.
type inbound struct {
	sess  *Session // nil for a validated ClientHello
	addr  netip.AddrPort
	nonce uint64 // hello only
	buf   *buffer
	n     int
}

// Listen opens the game port and starts the reader and writer goroutines.
// The caller drives the tick with Tick and ends with Close.
func Listen(cfg Config, h Handler) (*Server, error) {
	cfg.fill()
	c, err := conn.Listen(cfg.Listen)
	if err != nil {
		return nil, err
	}
	s := &Server{
		cfg:     cfg,
		conn:    c,
		handler: h,
		byToken: map[uint64]*Session{},
		inbound: make(chan inbound, cfg.InboundQueue),
		arrived: make(chan struct{}, 1),
		out:     make(chan *batch, 16),
		freeB:   make(chan *batch, 16),
		freeT:   make(chan *batch, 32),
		done:    make(chan struct{}),
	}
	s.pool.New = func() any {
		s.poolNew.Add(1)
		return new(buffer)
	}
	if _, err := rand.Read(s.secret[:]); err != nil {
		c.Close()
		return nil, fmt.Errorf("transport: cookie secret: %w", err)
	}
	s.tick.trace = openFlushTrace(cfg.Log)
	s.tick.init(s)
	s.wg.Add(2)
	go s.readLoop()
	go s.writeLoop()
	return s, nil
}

// Addr is the bound game address.
func (s *Server) Addr() netip.AddrPort { return s.conn.LocalAddr() }

// Arrived receives a value when the reader queued datagrams since the last
// one, at most every ArrivedEvery: the world's goroutine may call Receive
// then, between ticks, so that the clients' packets reach the world as they
// come rather than all at the tick.
func (s *Server) Arrived() <-chan struct{} { return s.arrived }

// GSO reports whether the writer sends a session's runs of equal-size
// datagrams as one UDP GSO message each (decision 0338): the socket offered
// it and the kernel has not refused it.
func (s *Server) GSO() bool { return s.conn.GSO() }

// Stats returns a snapshot of the counters.
func (s *Server) Stats() StatsSnapshot { return s.stats.snapshot() }

// Sessions is the number of live sessions.
func (s *Server) Sessions() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.byToken)
}

// Close stops the goroutines and closes the socket. Sessions are not told:
// call Shutdown from the tick goroutine first for that.
func (s *Server) Close() error {
	var err error
	s.closeOnce.Do(func() {
		close(s.done)
		err = s.conn.Close()
		s.wg.Wait()
		s.tick.trace.close()
	})
	return err
}

// lookup finds the live session of a token.
func (s *Server) lookup(token uint64) *Session {
	s.mu.RLock()
	sess := s.byToken[token]
	s.mu.RUnlock()
	return sess
}

// newToken draws a session token from crypto/rand: never 0, never in use.
func (s *Server) newToken() uint64 {
	var b [8]byte
	for {
		if _, err := rand.Read(b[:]); err != nil {
			panic("transport: crypto/rand failed: " + err.Error()) // the runtime's rand never fails
		}
		t := binary.LittleEndian.Uint64(b[:])
		if t != 0 && s.lookup(t) == nil {
			return t
		}
	}
}

func isClosed(err error) bool { return errors.Is(err, net.ErrClosed) }
