package admin

import (
	"strings"
	"testing"
	"time"
)

func TestHealthz(t *testing.T) {
	clk := &clock{t: time.Unix(1_800_000_000, 0)}
	s, ts := newTestServer(t, Config{HealthMaxAge: 2 * time.Second, Now: clk.Now})
	get := func() (int, string) { return do(t, "GET", ts.URL+"/healthz", "") }

	if code, body := get(); code != 503 || !strings.Contains(body, "no tick yet") {
		t.Errorf("before any tick: got %d %q, want 503 \"no tick yet\"", code, body)
	}
	s.ObserveTick(clk.Now(), time.Millisecond)
	if code, body := get(); code != 200 || strings.TrimSpace(body) != "ok" {
		t.Errorf("right after a tick: got %d %q, want 200 \"ok\"", code, body)
	}
	clk.Add(2 * time.Second)
	if code, _ := get(); code != 200 {
		t.Errorf("tick exactly 2s old (the threshold): got %d, want 200", code)
	}
	clk.Add(time.Millisecond)
	if code, body := get(); code != 503 || !strings.Contains(body, "last tick 2.001s ago") {
		t.Errorf("tick 2.001s old: got %d %q, want 503 naming the age", code, body)
	}
	s.ObserveTick(clk.Now(), time.Millisecond)
	if code, _ := get(); code != 200 {
		t.Errorf("after the tick resumed: got %d, want 200", code)
	}
}

func TestPprof(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	tests := []struct{ path, want string }{
		{"/debug/pprof/", "goroutine"},
		{"/debug/pprof/goroutine?debug=1", "goroutine profile:"},
		{"/debug/pprof/cmdline", ""},
		{"/debug/pprof/heap?debug=1", "heap profile:"},
	}
	for _, tt := range tests {
		code, body := do(t, "GET", ts.URL+tt.path, "")
		if code != 200 || !strings.Contains(body, tt.want) {
			t.Errorf("GET %s: got %d, body containing %q: %v", tt.path, code, tt.want, strings.Contains(body, tt.want))
		}
	}
}
