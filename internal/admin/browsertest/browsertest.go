// Package browsertest drives the live map page (/map) in headless Chromium
// for tests: it starts Debian's chromium with the flags this closed machine
// needs and reads back what the page drew. Only tests import it.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Poll waits (up to 20 s) until the JavaScript expression expr is true.
// Chromium returns the path of the headless browser: $DLMP_CHROMIUM, or
// chromium, chromium-browser or google-chrome on the PATH. Without one the
// test skips, except in CI (CI=true), where it fails.
func Chromium(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("DLMP_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	const msg = "no chromium on the PATH (nor $DLMP_CHROMIUM): the live map browser test needs it; " +
		"on Debian: apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// Browser starts headless Chromium with a new empty profile and no network
// beyond the test server, and returns a chromedp context of one tab.
func Browser(t testing.TB) context.Context {
	t.Helper()
	path := Chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(filepath.Join(t.TempDir(), "profile")),
		chromedp.WindowSize(1280, 960),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	// The first Run starts the browser; it must not carry the timeout.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancelTimeout)
	return ctx
}

// Drawn is what the page shows, read back from the DOM.
type Drawn struct {
	Snapshots   int       `json:"snapshots"`
	World       string    `json:"world"`
	Players     int       `json:"players"`
	Vehicles    int       `json:"vehicles"`
	Blips       int       `json:"blips"`
	Zones       int       `json:"zones"`
	Flashing    int       `json:"flashing"`
	Pickups     int       `json:"pickups"`
	Checkpoints int       `json:"checkpoints"`
	Labels      int       `json:"labels"`
	LayerCount  int       `json:"layerCount"` // data-count of the players layer
	Player0     []float64 `json:"player0"`    // data-x, data-y of player 0
	Circle0     []float64 `json:"circle0"`    // cx, cy of its circle
	ZoneIDs     []string  `json:"zoneIds"`    // in drawing order
	Headings    int       `json:"headings"`   // heading ticks of players
	Status      string    `json:"status"`
	Counts      string    `json:"counts"`
}

// ReadDrawn is the script that reads a Drawn back from the page.
const ReadDrawn = `(() => {
  const svg = document.getElementById("map");
  const n = (sel) => document.querySelectorAll(sel).length;
  const p = document.querySelector('#players > g[data-id="0"]');
  const c = p && p.querySelector("circle");
  return {
    snapshots: Number(svg.dataset.snapshots), world: svg.dataset.world,
    players: n("#players > g"), vehicles: n("#vehicles > rect"), blips: n("#blips > *"),
    zones: n("#zones > rect"), flashing: n('#zones > rect[data-flashing="1"]'),
    pickups: n("#pickups > path"), checkpoints: n("#checkpoints > circle"), labels: n("#labels > text"),
    layerCount: Number(document.getElementById("players").dataset.count),
    player0: p ? [Number(p.dataset.x), Number(p.dataset.y)] : [],
    circle0: c ? [Number(c.getAttribute("cx")), Number(c.getAttribute("cy"))] : [],
    zoneIds: [...document.querySelectorAll("#zones > rect")].map((r) => r.dataset.id),
    headings: n("#players > g > line.heading"),
    status: document.getElementById("status").textContent,
    counts: document.getElementById("counts").textContent,
  };
})()`

func Poll(expr string) chromedp.Action[chromedp.Void] {
	p := chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(20*time.Second))
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := p(ctx, t)
		return err
	})
}

// Eval evaluates expr, which must give true.
func Eval(expr string) chromedp.Action[chromedp.Void] {
	e := chromedp.Evaluate[bool](expr)
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		ok, err := e(ctx, t)
		if err == nil && !ok {
			return fmt.Errorf("%s: false", expr)
		}
		return err
	})
}
