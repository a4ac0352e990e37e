package server

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"dlmp/client"
	"dlmp/internal/config"
	"dlmp/internal/wire"
)

// playerSyncs counts the PlayerSyncs among the packets of datagram d.
func playerSyncs(d []byte) int {
	n := 0
	for len(d) > 0 {
		p := wire.New(d[0])
		if p == nil {
			break
		}
		used, err := p.Parse(d)
		if err != nil {
			break
		}
		if p.ID() == wire.IDPlayerSync {
			n++
		}
		d = d[used:]
	}
	return n
}

// TestSyncHzApartFromTickHz: a server ticking at 50 Hz that asks for
// PlayerSyncs at 20 Hz says 20 in its ServerHello, and an SDK client then
// sends about 20 a second, counted on the wire over two seconds, while the
// server keeps ticking at about 50.
func TestSyncHzApartFromTickHz(t *testing.T) {
	cfg := config.Default()
	cfg.Server.Listen = "127.0.0.1:0"
	cfg.Server.TickHz, cfg.Server.SyncHz = 50, 20
	cfg.Admin.Listen = ""
	srv, err := New(Options{Config: cfg, Log: slog.New(slog.DiscardHandler)}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	runServer(t, srv)
	tp := newTap(t, srv.Addr())
	dctx, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	c, err := client.Dial(dctx, client.Config{Server: tp.addr(), Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got := c.Hello().SyncHz; got != 20 {
		t.Fatalf("ServerHello sync_hz %d, want 20", got)
	}
	if err := c.SetSync(wire.PlayerSync{Health: 100}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // past the first sync
	srv.TakeTickStats()
	n0, t0 := tp.syncs.Load(), time.Now()
	time.Sleep(2 * time.Second)
	n1, t1 := tp.syncs.Load(), time.Now()
	ticks := srv.TakeTickStats().Count
	window := t1.Sub(t0)
	if rate := float64(n1-n0) / window.Seconds(); rate < 14 || rate > 26 {
		t.Errorf("the client sent %d PlayerSyncs in %v: %.1f a second, want about 20", n1-n0, window.Round(time.Millisecond), rate)
	}
	if rate := float64(ticks) / window.Seconds(); rate < 30 || rate > 60 {
		t.Errorf("the server ticked %d times in %v: %.1f a second, want about 50", ticks, window.Round(time.Millisecond), rate)
	}
	if err := c.Err(); err != nil {
		t.Fatalf("the connection ended: %v", err)
	}
}
