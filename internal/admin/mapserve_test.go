package admin

import (
	"bufio"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// events opens /map/events with the query and returns a function that
// reads the next event's data.
func events(t *testing.T, base, query string) func() mapEvent {
	t.Helper()
	resp, err := http.Get(base + "/map/events" + query)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != 200 {
		t.Fatalf("GET /map/events%s: status %d, want 200", query, resp.StatusCode)
	}
	if got := resp.Header.Get("Content-Type"); got != "text/event-stream" {
		t.Fatalf("Content-Type %q, want text/event-stream", got)
	}
	r := bufio.NewReader(resp.Body)
	return func() mapEvent {
		t.Helper()
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("reading the event stream: %v", err)
			}
			data, ok := strings.CutPrefix(line, "data: ")
			if !ok {
				continue
			}
			var ev mapEvent
			if err := json.Unmarshal([]byte(data), &ev); err != nil {
				t.Fatalf("event data %q: %v", data, err)
			}
			return ev
		}
	}
}

func TestMapEventsStreamSnapshots(t *testing.T) {
	_, ts := newTestServer(t, Config{MapInterval: 5 * time.Millisecond})
	next := events(t, ts.URL, "")
	a, b := next(), next()

	if a.State.Scope != (Scope{}) {
		t.Errorf("scope %+v, want world 0 interior 0", a.State.Scope)
	}
	wantScopes := []Scope{{}, {World: 1, Interior: 3}}
	if !slices.Equal(a.Scopes, wantScopes) {
		t.Errorf("scopes %+v, want %+v (sorted, Scope{} once)", a.Scopes, wantScopes)
	}
	counts := []struct {
		name      string
		got, want int
	}{
		{"players", len(a.State.Players), 3}, {"vehicles", len(a.State.Vehicles), 1},
		{"blips", len(a.State.Blips), 2}, {"zones", len(a.State.Zones), 2},
		{"pickups", len(a.State.Pickups), 3}, {"checkpoints", len(a.State.Checkpoints), 1},
		{"labels", len(a.State.Labels), 1},
	}
	for _, c := range counts {
		if c.got != c.want {
			t.Errorf("%s: %d in the snapshot, want %d", c.name, c.got, c.want)
		}
	}
	if a.State.Players[0].X == b.State.Players[0].X && a.State.Players[0].Y == b.State.Players[0].Y {
		t.Errorf("player 0 at (%v, %v) in two snapshots: want it moving", a.State.Players[0].X, a.State.Players[0].Y)
	}
	if b.At < a.At {
		t.Errorf("snapshot times go back: %d then %d", a.At, b.At)
	}
	z := a.State.Zones[0]
	if !z.Flashing || z.FlashColor != 0xff0000 || z.Color != 0x00ff00 || z.Alpha != 160 {
		t.Errorf("flashing zone %+v lost fields on the way", z)
	}
}

func TestMapEventsScope(t *testing.T) {
	_, ts := newTestServer(t, Config{MapInterval: time.Millisecond})
	ev := events(t, ts.URL, "?world=1&interior=3")()
	want := Scope{World: 1, Interior: 3}
	if ev.State.Scope != want {
		t.Errorf("scope %+v, want %+v", ev.State.Scope, want)
	}
	if len(ev.State.Players) != 1 || ev.State.Players[0].Scope != want || ev.State.Players[0].Name != "inside" {
		t.Errorf("players %+v, want the one inside world 1 interior 3", ev.State.Players)
	}
	if ev.State.Zones == nil || len(ev.State.Zones) != 0 {
		t.Errorf("zones %v, want an empty list, not null", ev.State.Zones)
	}
}

func TestMapEventsJSONNames(t *testing.T) {
	_, ts := newTestServer(t, Config{MapInterval: time.Millisecond})
	resp, err := http.Get(ts.URL + "/map/events?world=1&interior=3")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	var data string
	for !strings.HasPrefix(data, "data: ") {
		if data, err = r.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{
		`"scope":{"world":1,"interior":3}`, `"checkpoints":[]`,
		`"id":9,"world":1,"interior":3,"name":"inside","x":1,"y":2,"z":3`,
	} {
		if !strings.Contains(data, want) {
			t.Errorf("event data %s lacks %s", data, want)
		}
	}
}

func TestMapEventsBadScope(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	tests := []struct{ query, want string }{
		{"?world=x", "world: must be an integer"},
		{"?world=2147483648", "world: must be an integer"},
		{"?interior=256", "interior: must be an integer from 0 to 255"},
		{"?interior=-1", "interior"},
	}
	for _, tt := range tests {
		code, body := do(t, "GET", ts.URL+"/map/events"+tt.query, "")
		if code != 400 || !strings.Contains(body, tt.want) {
			t.Errorf("GET /map/events%s: got %d %q, want 400 %q", tt.query, code, body, tt.want)
		}
	}
}

func TestMapScopesAndPage(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	code, body := do(t, "GET", ts.URL+"/map/scopes", "")
	if code != 200 || strings.TrimSpace(body) != `[{"world":0,"interior":0},{"world":1,"interior":3}]` {
		t.Errorf("GET /map/scopes: got %d %s", code, body)
	}
	for _, tt := range []struct{ path, want string }{
		{"/map", `<svg id="map"`},
		{"/map/static/map.js", "new EventSource("},
		{"/map/static/map.css", "#players"},
	} {
		if code, body := do(t, "GET", ts.URL+tt.path, ""); code != 200 || !strings.Contains(body, tt.want) {
			t.Errorf("GET %s: status %d, containing %q: %v", tt.path, code, tt.want, strings.Contains(body, tt.want))
		}
	}
}

func TestStartCloseEndsStreams(t *testing.T) {
	s, err := New(Config{Listen: "127.0.0.1:0", MapInterval: time.Millisecond}, fakeSource{testStats}, &fakeMap{}, &fakeConsole{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	base := "http://" + s.Addr().String()
	if code, _ := do(t, "GET", base+"/metrics", ""); code != 200 {
		t.Fatalf("GET /metrics on the started server: %d", code)
	}
	resp, err := http.Get(base + "/map/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	if _, err := r.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	// The stream ends: reading reaches EOF rather than blocking forever.
	for {
		if _, err := r.ReadString('\n'); err != nil {
			break
		}
	}
	if _, err := http.Get(base + "/metrics"); err == nil {
		t.Error("GET /metrics after Close succeeded")
	}
}

func TestMapEventsCapped(t *testing.T) {
	_, ts := newTestServer(t, Config{MapInterval: time.Millisecond, MapMaxItems: 2})
	ev := events(t, ts.URL, "")()
	if got := len(ev.State.Players); got != 2 {
		t.Errorf("players %d, want 2 (MapMaxItems)", got)
	}
	if got := len(ev.State.Pickups); got != 2 {
		t.Errorf("pickups %d, want 2 (MapMaxItems)", got)
	}
	if got := len(ev.State.Zones); got != 2 {
		t.Errorf("zones %d, want 2 (all of them)", got)
	}
	want := map[string]int{"players": 3, "pickups": 3}
	if len(ev.Totals) != len(want) || ev.Totals["players"] != 3 || ev.Totals["pickups"] != 3 {
		t.Errorf("totals %v, want %v", ev.Totals, want)
	}
	if ev := events(t, ts.URL, "?world=1&interior=3")(); ev.Totals != nil {
		t.Errorf("totals %v with nothing cut, want none", ev.Totals)
	}
}
