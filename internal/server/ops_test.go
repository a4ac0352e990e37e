package server

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"dlmp/client"
	"dlmp/client/mirror"
	"dlmp/internal/admin"
	"dlmp/internal/config"
	"dlmp/internal/grid"
	"dlmp/internal/wire"
	"dlmp/internal/world"
)

// TestAdminWired: the admin listener of a running server reports the real
// world — players in /metrics, the player and a pickup on the live map,
// the console's status — and healthz follows the tick.
func TestAdminWired(t *testing.T) {
	cfg := config.Default()
	cfg.Server.Listen = "127.0.0.1:0"
	cfg.Admin.Listen = "127.0.0.1:0"
	srv, err := New(Options{Config: cfg, Log: slog.New(slog.DiscardHandler), Gamemode: func(w *world.World) (world.Gamemode, error) {
		_, err := w.CreatePickup(world.PickupParams{Model: 1240, Pos: grid.Vec{X: 50, Y: 60, Z: 3}})
		return &spawnAll{w: w}, err
	}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	defer func() { cancel(); <-done }()
	base := "http://" + srv.AdminAddr()

	dctx, dcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer dcancel()
	c, err := client.Dial(dctx, client.Config{Server: srv.Addr()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	spawned := time.Now().Add(5 * time.Second)
	for !spawnedYet(c) {
		if time.Now().After(spawned) {
			t.Fatal("the client never spawned")
		}
		time.Sleep(10 * time.Millisecond)
	}
	c.SetSync(wire.PlayerSync{State: wire.StateOnFoot, X: 1, Y: 2, Z: 3, Health: 100}) // the map shows accepted positions

	// /metrics: one player.
	deadline := time.Now().Add(5 * time.Second)
	for {
		resp, err := http.Get(base + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		parser := expfmt.NewTextParser(model.UTF8Validation)
		fams, err := parser.TextToMetricFamilies(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		// The tick's phases, one series each, fed by every tick: a scrape
		// during the first tick after the join may see only its first ones.
		if f := fams["dlmp_players"]; f != nil && f.Metric[0].GetGauge().GetValue() == 1 && fams["dlmp_datagrams_total"] != nil &&
			len(fams["dlmp_tick_phase_seconds"].GetMetric()) == 5 {
			// The world's box caches, one series per kind.
			for name, n := range map[string]int{"dlmp_box_cache_queries_total": 5, "dlmp_box_cache_boxes": 5, "dlmp_views_steady_total": 6, "dlmp_view_steps_total": 5*3 + 2} {
				if got := len(fams[name].GetMetric()); got != n {
					t.Errorf("%s: %d series, want %d", name, got, n)
				}
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("dlmp_players never reached 1 with the 5 tick phases: %v, %d phase series", fams["dlmp_players"], len(fams["dlmp_tick_phase_seconds"].GetMetric()))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if resp, err := http.Get(base + "/healthz"); err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", resp, err)
	}

	// The live map: the spawned player and the pickup.
	stream := &http.Client{Timeout: 10 * time.Second}
	resp, err := stream.Get(base + "/map/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	found := false
	for !found && sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev struct{ State admin.MapState }
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatal(err)
		}
		st := ev.State
		found = len(st.Players) == 1 && len(st.Pickups) == 1 && st.Pickups[0].X == 50
	}
	if !found {
		t.Fatal("the map stream never showed the player and the pickup")
	}

	// The console.
	cresp, err := http.Post(base+"/console", "text/plain", strings.NewReader("status"))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(cresp.Body)
	cresp.Body.Close()
	if !strings.Contains(string(out), "players 1/1000") || !strings.Contains(string(out), "tick 50 Hz, syncs 20 Hz") {
		t.Fatalf("status: %q", out)
	}
	cresp, err = http.Post(base+"/console", "text/plain", strings.NewReader("network_selftest"))
	if err != nil {
		t.Fatal(err)
	}
	out, _ = io.ReadAll(cresp.Body)
	cresp.Body.Close()
	if cresp.StatusCode != 200 || !strings.Contains(string(out), " 0 failed") {
		t.Fatalf("network_selftest over HTTP: %d %q", cresp.StatusCode, out)
	}
}

type spawnAll struct {
	world.Base
	w *world.World
}

func (s *spawnAll) PlayerJoin(p *world.Player) {
	s.w.Spawn(p, world.SpawnParams{Landing: world.Landing{Pos: grid.Vec{X: 1, Y: 2, Z: 3}}, Health: 100})
}

func spawnedYet(c *client.Client) (ok bool) {
	c.World(func(m *mirror.Mirror) { ok = m.Local().Spawned })
	return ok
}
