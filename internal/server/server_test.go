package server

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"dlmp/client"
	"dlmp/internal/config"
	"dlmp/internal/wire"
	"dlmp/internal/world"
)

// joins counts the players the gamemode saw.
type joins struct {
	world.Base
	w    *world.World
	seen []uint16
}

func (j *joins) PlayerJoin(p *world.Player) {
	j.seen = append(j.seen, p.ID())
	j.w.SetPlayerWeather(p, 9)
}

func start(t *testing.T) (*Server, *joins, context.CancelFunc, chan error) {
	t.Helper()
	cfg := config.Default()
	cfg.Server.Listen = "127.0.0.1:0"
	cfg.Admin.Listen = ""
	gm := &joins{}
	srv, err := New(Options{Config: cfg, Log: slog.New(slog.DiscardHandler), Gamemode: func(w *world.World) (world.Gamemode, error) {
		gm.w = w
		return gm, nil
	}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return srv, gm, cancel, done
}

func TestServeJoinAndShutdown(t *testing.T) {
	srv, gm, cancel, done := start(t)
	got := make(chan wire.Packet, 16)
	ctx, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	c, err := client.Dial(ctx, client.Config{Server: srv.Addr(), OnPacket: func(p wire.Packet) { got <- p }})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	select {
	case p := <-got:
		if w, ok := p.(*wire.SetWeather); !ok || w.Weather != 9 {
			t.Fatalf("first event %#v, want the gamemode's SetWeather 9", p)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no event from the gamemode's join")
	}
	var seen []uint16
	if err := srv.Do(ctx, func(*world.World) { seen = append(seen, gm.seen...) }); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || seen[0] != c.PlayerID() {
		t.Fatalf("gamemode saw joins %v, want [%d]", seen, c.PlayerID())
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	done <- nil // for the cleanup
	select {
	case <-c.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the client was not told of the shutdown")
	}
	var de *client.DisconnectError
	if !errors.As(c.Err(), &de) || de.Reason != wire.ReasonServerShutdown {
		t.Fatalf("client ended with %v, want server_shutdown", c.Err())
	}
	if st := srv.TakeTickStats(); st.Count == 0 {
		t.Fatal("no tick was measured")
	}
}

func TestBadConfigRefused(t *testing.T) {
	cfg := config.Default()
	cfg.Server.TickHz = 0
	if _, err := New(Options{Config: cfg}, time.Now()); err == nil {
		t.Fatal("a tick rate of 0 was accepted")
	}
}
