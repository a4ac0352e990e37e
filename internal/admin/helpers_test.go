package admin

import (
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeSource returns fixed counters.
type fakeSource struct{ st Stats }

func (f fakeSource) Stats() Stats { return f.st }

// fakeMap is a world whose players walk a circle: every MapState call is one
// step, so two snapshots always differ.
type fakeMap struct {
	mu    sync.Mutex
	steps int
}

func (f *fakeMap) Scopes() []Scope { return []Scope{{World: 1, Interior: 3}, {}} }

func (f *fakeMap) MapState(sc Scope) MapState {
	f.mu.Lock()
	f.steps++
	step := f.steps
	f.mu.Unlock()
	st := MapState{Scope: sc}
	if sc != (Scope{}) {
		st.Players = []MapPlayer{{ID: 9, Scope: sc, Name: "inside", X: 1, Y: 2, Z: 3, Color: 0xffffff}}
		return st
	}
	names := []string{"Alice", "Bob", "Carl"}
	for i, name := range names {
		a := float64(step)/10 + float64(i)*2*math.Pi/3
		st.Players = append(st.Players, MapPlayer{
			ID: uint32(i), Name: name, Color: []uint32{0xe04040, 0x40c0e0, 0x60e060}[i],
			X: float32(1500 + 800*math.Cos(a)), Y: float32(-1500 + 800*math.Sin(a)), Z: 13,
			Heading: float32(step * 10 % 360),
		})
	}
	st.Vehicles = []MapVehicle{{ID: 400, Model: 411, X: -2000, Y: 300, Z: 20, Heading: 45, Color: 0xd0d0d0}}
	st.Blips = []MapBlip{
		{ID: 1, Sprite: 0, Color: 0xff00ff, X: 2000, Y: 1700, Size: 1},
		{ID: 2, Sprite: 23, Color: 0xffd000, X: -2300, Y: -1600, Size: 2},
	}
	st.Zones = []MapZone{
		// Out of id order: the page draws the later id on top.
		{ID: 11, Color: 0x00ff00, Alpha: 160, Flashing: true, FlashColor: 0xff0000, MinX: 1900, MinY: 1200, MaxX: 2900, MaxY: 2200},
		{ID: 10, Color: 0x800080, Alpha: 140, MinX: 1000, MinY: -2000, MaxX: 2000, MaxY: -1000},
	}
	st.Pickups = []MapPickup{
		{ID: 50, Model: 1240, X: 1600, Y: -1600, Z: 13, Active: true},
		{ID: 51, Model: 356, X: -1800, Y: 500, Z: 30, Active: false},
		{ID: 52, Model: 1242, X: 300, Y: 300, Z: 5, Active: true},
	}
	st.Checkpoints = []MapCheckpoint{{ID: 70, Player: 0, Kind: 1, X: 0, Y: 0, Z: 3, Radius: 60, Color: 0xff3030}}
	st.Labels = []MapLabel{{ID: 80, Text: "Grove Street\nhome", Color: 0x40ff40, X: 2495, Y: -1680, Z: 13}}
	return st
}

// fakeConsole records its calls.
type fakeConsole struct {
	mu     sync.Mutex
	calls  []string
	reload error
}

func (c *fakeConsole) record(s string) {
	c.mu.Lock()
	c.calls = append(c.calls, s)
	c.mu.Unlock()
}

func (c *fakeConsole) Status(w io.Writer) error {
	c.record("status")
	fmt.Fprintln(w, "players: 3")
	return nil
}

func (c *fakeConsole) Kick(id uint32, w io.Writer) error {
	c.record(fmt.Sprintf("kick %d", id))
	if id > 2 {
		return fmt.Errorf("kick: no player %d", id)
	}
	fmt.Fprintf(w, "kicked %d\n", id)
	return nil
}

func (c *fakeConsole) NetworkDump(w io.Writer) error {
	c.record("network_dump")
	fmt.Fprintln(w, "registry: 0 vars")
	return nil
}

func (c *fakeConsole) NetworkSelftest(w io.Writer) error {
	c.record("network_selftest")
	fmt.Fprintln(w, "selftest: pass")
	return nil
}

func (c *fakeConsole) Reload(w io.Writer) error {
	c.record("reload")
	if c.reload != nil {
		return c.reload
	}
	fmt.Fprintln(w, "reloaded")
	return nil
}

var errReload = errors.New("main.lua:3: syntax error")

// clock is a settable time for the health check.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Set(t time.Time)     { c.mu.Lock(); c.t = t; c.mu.Unlock() }
func (c *clock) Add(d time.Duration) { c.Set(c.Now().Add(d)) }

// newTestServer returns a Server over the fakes, served by httptest.
func newTestServer(t *testing.T, cfg Config) (*Server, *httptest.Server) {
	t.Helper()
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	s, err := New(cfg, fakeSource{testStats}, &fakeMap{}, &fakeConsole{})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return s, ts
}

// do sends a request and returns the status and body.
func do(t *testing.T, method, url, body string, header ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", method, url, err)
	}
	return resp.StatusCode, string(b)
}

var testStats = Stats{
	Players:      3,
	DatagramsIn:  1000,
	DatagramsOut: 2000,
	BytesIn:      50_000,
	BytesOut:     900_000,
	Drops:        map[string]uint64{"bad_token": 4, "rate": 7, "stale": 0},
	Retransmits:  12,
	SendQueue:    40,
	SendQueueMax: 25,
	LuaErrors:    2,
	LuaTime:      1500 * time.Millisecond,
	NetvarBytes:  map[string]uint64{"hunger": 120, "wanted_level": 64},
	Caches: map[string]CacheStats{
		"objects":  {Queries: 5000, Grid: 30, Builds: 12, Steady: 4000, Boxes: 9, Stepped: 700, Shelled: 20, Refused: 3, Banded: 40, BandRefused: 1},
		"vehicles": {Steady: 900},
	},
}

// newHTTPTest serves s with httptest and returns the base URL.
func newHTTPTest(t *testing.T, s *Server) string {
	t.Helper()
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return ts.URL
}
