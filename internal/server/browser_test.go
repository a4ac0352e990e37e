package server

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"dlmp/internal/admin/browsertest"
	"dlmp/internal/bot"
	"dlmp/internal/config"
	"dlmp/internal/grid"
	"dlmp/internal/world"
)

// mapWorld spawns every player and has pickups, a blip and two gang zones
// (one flashing) near the spawn.
type mapWorld struct {
	world.Base
	w *world.World
}

func (m *mapWorld) PlayerJoin(p *world.Player) {
	m.w.Spawn(p, world.SpawnParams{Landing: world.Landing{Pos: grid.Vec{X: 100, Y: 100, Z: 10}}, Health: 100})
}

// TestMapInBrowserWithBots opens /map of a running server while bots
// play, and checks in headless Chromium that players, pickups, a blip and
// gang zones (one flashing) are drawn and that players move.
func TestMapInBrowserWithBots(t *testing.T) {
	cfg := config.Default()
	cfg.Server.Listen = "127.0.0.1:0"
	cfg.Admin.Listen = "127.0.0.1:0"
	srv, err := New(Options{Config: cfg, Log: slog.New(slog.DiscardHandler), Gamemode: func(w *world.World) (world.Gamemode, error) {
		for i := range 3 {
			if _, err := w.CreatePickup(world.PickupParams{Model: 1240, Pos: grid.Vec{X: 120 + 10*float32(i), Y: 100, Z: 10}}); err != nil {
				return nil, err
			}
		}
		if _, err := w.CreateBlip(world.BlipParams{Sprite: 6, Color: 0xFF0000, Pos: grid.Vec{X: 300, Y: 300}}); err != nil {
			return nil, err
		}
		for i, flash := range []bool{false, true} {
			id, err := w.CreateGangZone(world.ZoneParams{Min: [2]float32{float32(-500 + 600*i), -500}, Max: [2]float32{float32(-100 + 600*i), -100},
				Color: 0x00FF00, Alpha: 128, Flashing: flash, FlashColor: 0xFF0000})
			if err != nil {
				return nil, err
			}
			if err := w.ShowGangZone(id, nil); err != nil {
				return nil, err
			}
		}
		return &mapWorld{w: w}, nil
	}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	defer func() { cancel(); <-done }()

	bots := make(chan bot.Summary, 1)
	go func() {
		sum, _ := bot.Run(context.Background(), bot.Config{Server: srv.Addr(), N: 4, Duration: 8 * time.Second, Behaviours: []string{bot.Wander}})
		bots <- sum
	}()
	defer func() { <-bots }()

	b := browsertest.Browser(t)
	if err := chromedp.Do(b,
		chromedp.Navigate("http://"+srv.AdminAddr()+"/map"),
		browsertest.Poll(`document.querySelectorAll("#players > g").length === 4`),
	); err != nil {
		t.Fatalf("the map never drew the 4 bots: %v", err)
	}
	first, err := chromedp.Run(b, chromedp.Evaluate[browsertest.Drawn](browsertest.ReadDrawn))
	if err != nil {
		t.Fatal(err)
	}
	if first.Pickups != 3 || first.Blips != 1 || first.Zones != 2 || first.Flashing != 1 {
		t.Fatalf("drawn %+v, want 3 pickups, 1 blip, 2 zones (1 flashing)", first)
	}
	// The bots wander: player 0 is drawn somewhere else a moment later.
	if err := chromedp.Do(b, browsertest.Poll(`(() => {
		const p = document.querySelector('#players > g[data-id="0"]');
		return p && (Number(p.dataset.x) !== `+ftoa(first.Player0[0])+` || Number(p.dataset.y) !== `+ftoa(first.Player0[1])+`);
	})()`)); err != nil {
		t.Fatalf("player 0 never moved on the map from %v: %v", first.Player0, err)
	}
	shot, err := chromedp.Run(b, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv("DLMP_ARTIFACTS") // where CI keeps artifacts, if it sets it
	if dir == "" {
		dir = os.TempDir()
	}
	path := filepath.Join(dir, "dlmp-map-with-bots.png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
