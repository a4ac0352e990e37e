package admin

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

var screenshotFlag = flag.Bool("screenshot", false, "copy the map screenshot of TestMapInBrowser to docs/map-screenshot.png")

// chromium returns the path of the headless browser: $DLMP_CHROMIUM, or
// chromium, chromium-browser or google-chrome on the PATH. Without one the
// test skips, except in CI (CI=true), where it fails.
func chromium(t *testing.T) string {
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

// browser starts headless Chromium with a new empty profile and no network
// beyond the test server, and returns a chromedp context of one tab.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := chromium(t)
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

// drawn is what the page shows, read back from the DOM.
type drawn struct {
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

const readDrawn = `(() => {
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

func TestMapInBrowser(t *testing.T) {
	// The server first: cleanups run last-in first-out, so the browser,
	// which holds an event stream open, stops before the server closes.
	_, ts := newTestServer(t, Config{MapInterval: 100 * time.Millisecond})
	ctx := browser(t)

	if err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/map"),
		voidPoll(`Number(document.getElementById("map").dataset.snapshots) >= 1`),
	); err != nil {
		t.Fatalf("opening /map and waiting for a snapshot: %v", err)
	}
	first, err := chromedp.Run(ctx, chromedp.Evaluate[drawn](readDrawn))
	if err != nil {
		t.Fatalf("reading the page: %v", err)
	}
	counts := []struct {
		name      string
		got, want int
	}{
		{"players", first.Players, 3}, {"players data-count", first.LayerCount, 3},
		{"vehicles", first.Vehicles, 1}, {"blips", first.Blips, 2}, {"zones", first.Zones, 2},
		{"flashing zones", first.Flashing, 1}, {"pickups", first.Pickups, 3},
		{"checkpoints", first.Checkpoints, 1}, {"labels", first.Labels, 1},
	}
	for _, c := range counts {
		if c.got != c.want {
			t.Errorf("%s drawn: %d, want %d", c.name, c.got, c.want)
		}
	}
	if got := strings.Join(first.ZoneIDs, ","); got != "10,11" {
		t.Errorf("zones drawn in the order %s, want 10,11 (a later id over an earlier one)", got)
	}
	if first.Headings != 3 {
		t.Errorf("%d heading ticks, want one per player", first.Headings)
	}
	if want := "3 players · 1 vehicles · 2 blips · 2 zones · 3 pickups · 1 checkpoints · 1 labels"; first.Counts != want {
		t.Errorf("counts line %q, want %q", first.Counts, want)
	}
	if first.Status != "live" {
		t.Errorf("status %q, want live", first.Status)
	}
	if len(first.Player0) != 2 || len(first.Circle0) != 2 {
		t.Fatalf("player 0 not drawn: %+v", first)
	}
	// North is up: the circle's SVG y is the world's -y.
	if first.Circle0[0] != first.Player0[0] || first.Circle0[1] != -first.Player0[1] {
		t.Errorf("player 0 at world %v drawn at %v, want (x, -y)", first.Player0, first.Circle0)
	}

	// Two snapshots later the players have moved.
	wait := `Number(document.getElementById("map").dataset.snapshots) >= ` + strconv.Itoa(first.Snapshots+2)
	if err := chromedp.Do(ctx, voidPoll(wait)); err != nil {
		t.Fatalf("waiting for two more snapshots: %v", err)
	}
	second, err := chromedp.Run(ctx, chromedp.Evaluate[drawn](readDrawn))
	if err != nil {
		t.Fatal(err)
	}
	if len(second.Player0) != 2 || (second.Player0[0] == first.Player0[0] && second.Player0[1] == first.Player0[1]) {
		t.Errorf("player 0 at %v after %d snapshots, at %v before: want it moved", second.Player0, second.Snapshots, first.Player0)
	}

	// The flashing zone moves from color (0x00ff00) to flash_color (0xff0000)
	// and back over 1024 ms; the still zone keeps its color.
	fills, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
	  const z = document.querySelector('#zones > rect[data-flashing="1"]');
	  const still = document.querySelector('#zones > rect[data-flashing="0"]');
	  const out = [];
	  for (const t of [0, 256, 512, 1024 + 512, 1024]) { flash(t); out.push(z.getAttribute("fill")); }
	  out.push(still.getAttribute("fill"), z.getAttribute("fill-opacity"));
	  return out;
	})()`))
	if err != nil {
		t.Fatalf("driving the flash: %v", err)
	}
	wantFills := []string{"rgb(0,255,0)", "rgb(127,128,0)", "rgb(255,0,0)", "rgb(255,0,0)", "rgb(0,255,0)", "#800080", "0.627"}
	if len(fills) != len(wantFills) {
		t.Fatalf("fills %q, want %q", fills, wantFills)
	}
	for i := range wantFills {
		if fills[i] != wantFills[i] {
			t.Errorf("zone fills %q, want %q", fills, wantFills)
			break
		}
	}

	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	out := filepath.Join(t.ArtifactDir(), "map.png")
	if err := os.WriteFile(out, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", out, len(shot))
	if *screenshotFlag {
		if err := os.WriteFile(filepath.Join("..", "..", "docs", "map-screenshot.png"), shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// The wheel zooms in around the cursor; a double click shows the bounds again.
	boxes, err := chromedp.Run(ctx, chromedp.Evaluate[[][]float64](`(() => {
	  const svg = document.getElementById("map");
	  const r = svg.getBoundingClientRect();
	  const at = { clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, bubbles: true, cancelable: true };
	  svg.dispatchEvent(new WheelEvent("wheel", { ...at, deltaY: -100 }));
	  const box = () => svg.getAttribute("viewBox").split(" ").map(Number);
	  const zoomed = box();
	  svg.dispatchEvent(new MouseEvent("dblclick", at));
	  return [zoomed, box()];
	})()`))
	if err != nil {
		t.Fatalf("zooming: %v", err)
	}
	// One wheel step is 0.8x around the center (the cursor lands within a
	// pixel of it, 15 m at this zoom).
	want := [][]float64{{-4800, -4800, 9600, 9600}, {-6000, -6000, 12000, 12000}}
	if len(boxes) != 2 || len(boxes[0]) != 4 || len(boxes[1]) != 4 {
		t.Fatalf("viewBoxes %v, want %v", boxes, want)
	}
	for i := range want {
		for j := range want[i] {
			if d := boxes[i][j] - want[i][j]; d < -15 || d > 15 {
				t.Errorf("viewBox after a wheel step and a double click: %v, want %v", boxes, want)
			}
		}
	}

	// Choosing another scope in the selector switches the stream.
	if err := chromedp.Do(ctx,
		voidEval(`(() => { const s = document.getElementById("scope");
		  s.value = "1/3"; s.dispatchEvent(new Event("change")); return true; })()`),
		voidPoll(`document.getElementById("map").dataset.world === "1" &&
		  document.querySelectorAll("#players > g").length === 1 &&
		  document.querySelectorAll("#pickups > path").length === 0`),
	); err != nil {
		t.Fatalf("switching to world 1 interior 3: %v", err)
	}
	third, err := chromedp.Run(ctx, chromedp.Evaluate[drawn](readDrawn))
	if err != nil {
		t.Fatal(err)
	}
	if third.Players != 1 || third.Zones != 0 || third.Labels != 0 {
		t.Errorf("world 1 interior 3: %d players, %d zones, %d labels drawn, want 1, 0, 0", third.Players, third.Zones, third.Labels)
	}
	if loc, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.search`)); err != nil || loc != "?world=1&interior=3" {
		t.Errorf("page address query %q (%v), want ?world=1&interior=3 so a reload keeps the scope", loc, err)
	}
}

func voidPoll(expr string) chromedp.Action[chromedp.Void] {
	p := chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(20*time.Second))
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := p(ctx, t)
		return err
	})
}

// voidEval evaluates expr, which must give true.
func voidEval(expr string) chromedp.Action[chromedp.Void] {
	e := chromedp.Evaluate[bool](expr)
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		ok, err := e(ctx, t)
		if err == nil && !ok {
			return fmt.Errorf("%s: false", expr)
		}
		return err
	})
}

// TestMapInBrowserOffLoopback opens the page of a server that needs the
// token, with HTTP Basic credentials as a browser sends them, and checks the
// event stream (an EventSource, which cannot carry a bearer header) gets
// through, and that a capped snapshot shows "n of total".
func TestMapInBrowserOffLoopback(t *testing.T) {
	_, ts := newTestServer(t, Config{Listen: "0.0.0.0:7780", Token: "tok3n", MapInterval: 100 * time.Millisecond, MapMaxItems: 2})
	ctx := browser(t)

	url := strings.Replace(ts.URL, "http://", "http://admin:tok3n@", 1) + "/map"
	if err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		voidPoll(`Number(document.getElementById("map").dataset.snapshots) >= 1`),
	); err != nil {
		t.Fatalf("opening /map with Basic credentials: %v", err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[drawn](readDrawn))
	if err != nil {
		t.Fatal(err)
	}
	if got.Players != 2 || got.Pickups != 2 || got.Zones != 2 {
		t.Errorf("drawn %d players, %d pickups, %d zones, want 2, 2, 2 (capped at 2)", got.Players, got.Pickups, got.Zones)
	}
	if want := "2 of 3 players · 1 vehicles · 2 blips · 2 zones · 2 of 3 pickups · 1 checkpoints · 1 labels"; got.Counts != want {
		t.Errorf("counts line %q, want %q", got.Counts, want)
	}
}
