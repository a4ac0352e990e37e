package transport

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"dlmp/internal/conn"
	"dlmp/internal/udptest"
	"dlmp/internal/wire"
)

// quietServer is a running Server on loopback whose sessions never time
// out nor send keepalives, logging nothing, closed when tb ends (after the
// test's own deferred calls).
func quietServer(tb testing.TB) *Server {
	tb.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	s, err := Listen(Config{Listen: "127.0.0.1:0", Keepalive: time.Hour, Timeout: time.Hour, Log: quiet}, nopWorld{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// attachReceivers attaches n sessions to s, each to a loopback socket of
// its own that the test reads (closed when tb ends).
func attachReceivers(tb testing.TB, s *Server, n int, now time.Time) ([]*conn.Conn, []*Session) {
	tb.Helper()
	var rx []*conn.Conn
	var sess []*Session
	for range n {
		c, err := conn.Listen("127.0.0.1:0")
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { c.Close() })
		rx = append(rx, c)
		sess = append(sess, s.Attach(c.LocalAddr(), now))
	}
	return rx, sess
}

// sinkSessions is a running Server (cfg, on loopback, closed when tb
// ends) with n sessions attached to 20 sinks in turn (udptest.Sinks), and
// the time they were attached.
func sinkSessions(tb testing.TB, cfg Config, n int) (*Server, []*Session, time.Time) {
	tb.Helper()
	cfg.Listen = "127.0.0.1:0"
	s, err := Listen(cfg, nopWorld{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	sinks := udptest.Sinks(tb, 20)
	now := time.Now()
	all := make([]*Session, n)
	for i := range all {
		all[i] = s.Attach(sinks[i%len(sinks)], now)
	}
	return s, all, now
}

// scatteredSpans is session i's run of moves of a crowd benchmark: moves
// PlayerMoves of 42 bytes of the world's buffer of movers, scattered over
// it and distinct for moves < movers.
func scatteredSpans(i, moves, movers int) []uint64 {
	var spans []uint64
	for j := range moves {
		id := (i*7919 + j*104729) % movers
		spans = append(spans, uint64(id*42)|42<<32)
	}
	return spans
}

// nopWorld admits everyone and ignores packets.
type nopWorld struct{}

func (nopWorld) Join(*Session, *wire.ServerHello) bool   { return true }
func (nopWorld) Packet(*Session, wire.Packet, time.Time) {}
func (nopWorld) Leave(*Session, uint8)                   {}
