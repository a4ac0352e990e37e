package config

import (
	"fmt"
	"net"
	"net/netip"
)

// Validate checks every value's range; the error names the dotted key.
func (c *Config) Validate() error {
	ints := []struct {
		key    string
		v      int
		lo, hi int
	}{
		{"server.tick_hz", c.Server.TickHz, 1, 100},
		{"server.sync_hz", c.Server.SyncHz, 1, 100},
		{"server.max_players", c.Server.MaxPlayers, 1, 1000},
		{"net.keepalive_ms", c.Net.KeepaliveMs, 100, 10000},
		{"net.timeout_ms", c.Net.TimeoutMs, 1000, 60000},
		{"net.send_queue", c.Net.SendQueue, 256, 65536},
		{"net.inbound_rate", c.Net.InboundRate, 10, 100000},
		{"clock.hours", c.Clock.Hours, 0, 23},
		{"clock.minutes", c.Clock.Minutes, 0, 59},
		{"clock.minute_ms", c.Clock.MinuteMs, 10, 3_600_000},
		{"clock.utc_offset_minutes", c.Clock.UTCOffsetM, -720, 840},
		{"clock.weather", c.Clock.Weather, 0, 22},
		{"netvar.resync_rate", c.Netvar.ResyncRate, 1, 100000},
		{"netvar.resync_rate_player", c.Netvar.ResyncRatePlayer, 1, 100000},
		{"netvar.sync_bytes", c.Netvar.SyncBytes, 256, 60000},
		{"netvar.clientset_rate", c.Netvar.ClientSetRate, 1, 100000},
		{"script.budget_ms", c.Script.BudgetMs, 1, 10000},
	}
	for _, f := range ints {
		if f.v < f.lo || f.v > f.hi {
			return &Error{Key: f.key, Msg: fmt.Sprintf("must be %d..%d, got %d", f.lo, f.hi, f.v)}
		}
	}
	// A world ticking slower than its syncs would only batch them.
	if c.Server.SyncHz > c.Server.TickHz {
		return &Error{Key: "server.sync_hz", Msg: fmt.Sprintf("must be at most server.tick_hz (%d), got %d", c.Server.TickHz, c.Server.SyncHz)}
	}
	if c.Net.TimeoutMs < 2*c.Net.KeepaliveMs {
		return &Error{Key: "net.timeout_ms", Msg: fmt.Sprintf("must be at least 2 × net.keepalive_ms (%d), got %d", 2*c.Net.KeepaliveMs, c.Net.TimeoutMs)}
	}
	floats := []struct {
		key    string
		v      float64
		lo, hi float64
	}{
		{"world.pickup_draw_distance", c.World.PickupDrawDistance, 1, 1000},
		{"world.object_stream_distance", c.World.ObjectStreamDistance, 1, 3000},
	}
	for _, f := range floats {
		if !(f.v >= f.lo && f.v <= f.hi) {
			return &Error{Key: f.key, Msg: fmt.Sprintf("must be %g..%g, got %g", f.lo, f.hi, f.v)}
		}
	}
	switch c.Clock.Mode {
	case "frozen", "running", "real":
	default:
		return &Error{Key: "clock.mode", Msg: fmt.Sprintf("must be frozen, running or real, got %q", c.Clock.Mode)}
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		return &Error{Key: "log.level", Msg: fmt.Sprintf("must be debug, info, warn or error, got %q", c.Log.Level)}
	}
	switch c.Log.Format {
	case "text", "json":
	default:
		return &Error{Key: "log.format", Msg: fmt.Sprintf("must be text or json, got %q", c.Log.Format)}
	}
	if _, _, err := net.SplitHostPort(c.Server.Listen); err != nil {
		return &Error{Key: "server.listen", Msg: fmt.Sprintf("must be host:port, got %q", c.Server.Listen)}
	}
	if c.Admin.Listen != "" {
		host, _, err := net.SplitHostPort(c.Admin.Listen)
		if err != nil {
			return &Error{Key: "admin.listen", Msg: fmt.Sprintf("must be host:port or empty, got %q", c.Admin.Listen)}
		}
		if !loopback(host) && c.Admin.Token == "" {
			return &Error{Key: "admin.token", Msg: fmt.Sprintf("required when admin.listen (%s) is not a loopback address", c.Admin.Listen)}
		}
	}
	return nil
}

// loopback reports whether host names only the local machine.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}
