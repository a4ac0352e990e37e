package bot

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"dlmp/internal/config"
	"dlmp/internal/grid"
	"dlmp/internal/server"
	"dlmp/internal/world"
)

// spawner spawns every player at join, with a pickup near the spawn.
type spawner struct {
	world.Base
	w *world.World
}

func (s *spawner) PlayerJoin(p *world.Player) {
	s.w.Spawn(p, world.SpawnParams{Landing: world.Landing{Pos: grid.Vec{X: 100, Y: 100, Z: 10}}, Health: 100})
}

func TestBotsAgainstServer(t *testing.T) {
	cfg := config.Default()
	cfg.Server.Listen = "127.0.0.1:0"
	cfg.Admin.Listen = ""
	srv, err := server.New(server.Options{Config: cfg, Log: slog.New(slog.DiscardHandler), Gamemode: func(w *world.World) (world.Gamemode, error) {
		return &spawner{w: w}, nil
	}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	defer func() { cancel(); <-done }()

	// Watch the world while the bots play: their wandering must move the
	// last accepted positions away from the spawn point (their syncs carry
	// the spawn's event_id in landed, so the world accepts them).
	movedc := make(chan int, 1)
	go func() {
		moved := 0
		defer func() { movedc <- moved }()
		time.Sleep(1200 * time.Millisecond)
		srv.Do(context.Background(), func(w *world.World) {
			for id := range uint16(cfg.Server.MaxPlayers) {
				if p := w.Player(id); p != nil {
					if pos, ok := p.Position(); ok && (pos.X != 100 || pos.Y != 100) {
						moved++
					}
				}
			}
		})
	}()
	sum, err := Run(context.Background(), Config{Server: srv.Addr(), N: 20, Duration: 1500 * time.Millisecond, Rate: 20, Behaviours: []string{Wander, Chat, Waypoints}})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Connected != 20 || sum.Failed != 0 || sum.Lost != 0 || sum.Invalid != 0 || len(sum.Disconnects) != 0 {
		t.Fatalf("summary %+v", sum)
	}
	if sum.Events < 20 { // at least every SpawnPlayer
		t.Fatalf("%d reliable events for 20 bots, want at least their spawns", sum.Events)
	}
	if moved := <-movedc; moved != 20 {
		t.Fatalf("%d of 20 bots have an accepted position away from the spawn", moved)
	}
	if sum.DatagramsOut < 20*20 || sum.BytesIn == 0 {
		t.Fatalf("traffic %+v: 20 bots at 20 Hz for 1.5 s send more", sum)
	}
}

func TestUnknownBehaviour(t *testing.T) {
	if _, err := Run(context.Background(), Config{Behaviours: []string{"fly"}}); err == nil {
		t.Fatal("an unknown behaviour was accepted")
	}
}
