package admin

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"dlmp/internal/admin/browsertest"
)

var screenshotFlag = flag.Bool("screenshot", false, "copy the map screenshot of TestMapInBrowser to docs/map-screenshot.png")

func TestMapInBrowser(t *testing.T) {
	// The server first: cleanups run last-in first-out, so the browser,
	// which holds an event stream open, stops before the server closes.
	_, ts := newTestServer(t, Config{MapInterval: 100 * time.Millisecond})
	ctx := browsertest.Browser(t)

	if err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/map"),
		browsertest.Poll(`Number(document.getElementById("map").dataset.snapshots) >= 1`),
	); err != nil {
		t.Fatalf("opening /map and waiting for a snapshot: %v", err)
	}
	first, err := chromedp.Run(ctx, chromedp.Evaluate[browsertest.Drawn](browsertest.ReadDrawn))
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
	if err := chromedp.Do(ctx, browsertest.Poll(wait)); err != nil {
		t.Fatalf("waiting for two more snapshots: %v", err)
	}
	second, err := chromedp.Run(ctx, chromedp.Evaluate[browsertest.Drawn](browsertest.ReadDrawn))
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
		browsertest.Eval(`(() => { const s = document.getElementById("scope");
		  s.value = "1/3"; s.dispatchEvent(new Event("change")); return true; })()`),
		browsertest.Poll(`document.getElementById("map").dataset.world === "1" &&
		  document.querySelectorAll("#players > g").length === 1 &&
		  document.querySelectorAll("#pickups > path").length === 0`),
	); err != nil {
		t.Fatalf("switching to world 1 interior 3: %v", err)
	}
	third, err := chromedp.Run(ctx, chromedp.Evaluate[browsertest.Drawn](browsertest.ReadDrawn))
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

// TestMapInBrowserOffLoopback opens the page of a server that needs the
// token, with HTTP Basic credentials as a browser sends them, and checks the
// event stream (an EventSource, which cannot carry a bearer header) gets
// through, and that a capped snapshot shows "n of total".
func TestMapInBrowserOffLoopback(t *testing.T) {
	_, ts := newTestServer(t, Config{Listen: "0.0.0.0:7780", Token: "tok3n", MapInterval: 100 * time.Millisecond, MapMaxItems: 2})
	ctx := browsertest.Browser(t)

	url := strings.Replace(ts.URL, "http://", "http://admin:tok3n@", 1) + "/map"
	if err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		browsertest.Poll(`Number(document.getElementById("map").dataset.snapshots) >= 1`),
	); err != nil {
		t.Fatalf("opening /map with Basic credentials: %v", err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[browsertest.Drawn](browsertest.ReadDrawn))
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
