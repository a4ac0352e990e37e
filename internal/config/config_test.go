package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestDefaultIsValid(t *testing.T) {
	c := Default()
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestEmptyFileIsDefault(t *testing.T) {
	c, err := Parse("empty.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, Default()) {
		t.Fatalf("empty file = %+v, want the defaults", c)
	}
}

func TestParseOverrides(t *testing.T) {
	c, err := Parse("x.toml", []byte(`
[server]
listen = "127.0.0.1:9000"
tick_hz = 30
sync_hz = 30

[clock]
mode = "running"
minute_ms = 60000
`))
	if err != nil {
		t.Fatal(err)
	}
	if c.Server.Listen != "127.0.0.1:9000" || c.Server.TickHz != 30 || c.Server.SyncHz != 30 || c.Clock.Mode != "running" || c.Clock.MinuteMs != 60000 {
		t.Fatalf("overrides not applied: %+v", c)
	}
	if c.Server.MaxPlayers != 1000 || c.Netvar.ResyncRate != 32 {
		t.Fatalf("defaults lost: %+v", c)
	}
}

// TestErrors: each bad file is refused with the key and the line of the problem.
func TestErrors(t *testing.T) {
	tests := []struct {
		name, file string
		key        string
		line       int
		msg        string
	}{
		{"unknown key", "[server]\nlisten = \":1\"\ntickrate = 5\n", "server.tickrate", 3, "unknown key"},
		{"unknown table", "[nope]\nx = 1\n", "nope", 1, "unknown key"},
		{"wrong type", "[server]\n\ntick_hz = \"fast\"\n", "server.tick_hz", 3, ""},
		{"out of range", "[server]\ntick_hz = 0\n", "server.tick_hz", 2, "must be 1..100, got 0"},
		{"sync_hz 0", "[server]\nsync_hz = 0\n", "server.sync_hz", 2, "must be 1..100, got 0"},
		{"sync_hz 101", "[server]\ntick_hz = 100\nsync_hz = 101\n", "server.sync_hz", 3, "must be 1..100, got 101"},
		{"sync_hz above tick_hz", "[server]\ntick_hz = 30\nsync_hz = 31\n", "server.sync_hz", 3, "must be at most server.tick_hz (30), got 31"},
		{"tick_hz below the default sync_hz", "[server]\ntick_hz = 10\n", "server.sync_hz", 0, "must be at most server.tick_hz (10), got 20"},
		{"float range", "[world]\n# comment\npickup_draw_distance = 5000.0\n", "world.pickup_draw_distance", 3, "must be 1..1000"},
		{"enum", "[clock]\nmode = \"fast\"\n", "clock.mode", 2, "frozen, running or real"},
		{"weather", "[clock]\nweather = 23\n", "clock.weather", 2, "0..22"},
		{"timeout vs keepalive", "[net]\nkeepalive_ms = 5000\ntimeout_ms = 6000\n", "net.timeout_ms", 3, "2 × net.keepalive_ms"},
		{"admin token", "[admin]\nlisten = \"0.0.0.0:7780\"\n", "admin.token", 0, "not a loopback"},
		{"listen", "[server]\nlisten = \"7777\"\n", "server.listen", 2, "host:port"},
	}
	for _, tt := range tests {
		_, err := Parse("bad.toml", []byte(tt.file))
		var ce *Error
		if !errors.As(err, &ce) {
			t.Errorf("%s: err = %v, want *Error", tt.name, err)
			continue
		}
		if ce.Key != tt.key || ce.Line != tt.line || !strings.Contains(ce.Msg, tt.msg) {
			t.Errorf("%s: got key %q line %d msg %q, want key %q line %d msg containing %q", tt.name, ce.Key, ce.Line, ce.Msg, tt.key, tt.line, tt.msg)
		}
		if tt.line > 0 && !strings.HasPrefix(err.Error(), "bad.toml:") {
			t.Errorf("%s: error %q does not start with the file name", tt.name, err)
		}
	}
}

// TestSyncHzUpToTickHz: any sync rate up to the tick rate is accepted.
func TestSyncHzUpToTickHz(t *testing.T) {
	for _, hz := range []struct{ tick, sync int }{{50, 20}, {20, 20}, {100, 100}, {1, 1}, {100, 1}} {
		c := Default()
		c.Server.TickHz, c.Server.SyncHz = hz.tick, hz.sync
		if err := c.Validate(); err != nil {
			t.Errorf("tick_hz %d sync_hz %d: %v", hz.tick, hz.sync, err)
		}
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	c := Default()
	c.Server.TickHz = 33
	c.Server.SyncHz = 25
	c.Clock.Mode = "real"
	c.Admin.Listen = ""
	out, err := Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"tick_hz = 33", "# world ticks per second", "sync_hz = 25", "# the PlayerSync rate told to clients in ServerHello", "[netvar]", "resync_rate = 32"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("printed config lacks %q:\n%s", want, out)
		}
	}
	path := filepath.Join(t.TempDir(), "c.toml")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, c) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", back, c)
	}
}

func TestLoadMissing(t *testing.T) {
	if _, err := Load(filepath.Join(t.TempDir(), "none.toml")); err == nil {
		t.Fatal("Load of a missing file succeeded")
	}
}
