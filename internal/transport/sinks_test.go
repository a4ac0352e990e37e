package transport

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"dlmp/internal/conn"
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

// nopWorld admits everyone and ignores packets.
type nopWorld struct{}

func (nopWorld) Join(*Session, *wire.ServerHello) bool   { return true }
func (nopWorld) Packet(*Session, wire.Packet, time.Time) {}
func (nopWorld) Leave(*Session, uint8)                   {}
