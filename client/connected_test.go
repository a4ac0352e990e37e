package client

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"dlmp/internal/conn"
	"dlmp/internal/wire"
)

// TestRefusedIsTransient: on the connected socket, a datagram sent while
// nobody listens on the server's port comes back as an ICMP port
// unreachable, which fails the reader's next read with ECONNREFUSED. The
// reader counts it and reads on: the connection does not end, and the
// server's datagrams are handled once it is back on its port.
func TestRefusedIsTransient(t *testing.T) {
	c := loopClient(t, time.Now().Add(-time.Hour))
	srv := connect(t, c)
	port := srv.LocalAddr().(*net.UDPAddr)
	srv.Close() // nobody listens on the server's port now
	c.kick = make(chan struct{}, 1)
	var err error
	if c.rc, err = conn.Wrap(c.uc); err != nil {
		t.Fatal(err)
	}
	c.wg.Add(1)
	go c.readLoop()
	defer func() { c.mu.Lock(); c.endLocked(0, ErrClosed); c.mu.Unlock(); c.wg.Wait() }()
	deadline := time.Now().Add(5 * time.Second)
	for refusals := 0; refusals == 0; {
		if time.Now().After(deadline) {
			t.Fatal("no refusal counted 5 s after sending to a closed port")
		}
		c.send([]byte("anyone?"), time.Now())
		c.flushOut()
		time.Sleep(10 * time.Millisecond)
		c.mu.Lock()
		var end error
		refusals, end = c.stats.Refused, c.err
		c.mu.Unlock()
		if end != nil {
			t.Fatalf("the refusal ended the connection: %v", end)
		}
	}
	back, err := net.ListenUDP("udp4", port) // the server restarts on its port
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	if _, err := back.WriteToUDPAddrPort((&wire.SetWeather{EventID: 1, Weather: 7}).Append(nil), c.uc.LocalAddr().(*net.UDPAddr).AddrPort()); err != nil {
		t.Fatal(err)
	}
	for {
		c.mu.Lock()
		events, end := c.stats.Events, c.err
		c.mu.Unlock()
		if end != nil {
			t.Fatalf("the connection ended: %v", end)
		}
		if events == 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the server's event was not handled within 5 s after the refusal")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestDialRefusedWaitsForTheDeadline: Dial to a port nobody listens on
// keeps sending its hellos at HelloInterval until the context ends, as on
// an unconnected socket: the refusal of a hello does not use up the tries
// at once (a bot dialing a server that is starting would give up in a
// millisecond).
func TestDialRefusedWaitsForTheDeadline(t *testing.T) {
	l, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	addr := l.LocalAddr().String()
	l.Close()
	const wait = 2 * HelloInterval
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	start := time.Now()
	c, err := Dial(ctx, Config{Server: addr})
	if err == nil {
		c.Close()
		t.Fatal("Dial to a port nobody listens on succeeded")
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got error %v, want the context's deadline", err)
	}
	if took := time.Since(start); took < wait-50*time.Millisecond {
		t.Errorf("Dial gave up after %v, want it to try until the deadline, %v", took, wait)
	}
}
