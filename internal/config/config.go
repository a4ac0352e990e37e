// Package config is the server's configuration: a TOML file whose every key
// has a documented default (Default, and the commented file Sample writes),
// overridden by command-line flags. An unknown key or a bad value is an error
// naming the key and its line in the file, before anything starts.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// Config is every setting of `dlmp serve`. TOML keys are the struct tags.
type Config struct {
	Server Server `toml:"server"`
	Net    Net    `toml:"net"`
	World  World  `toml:"world"`
	Clock  Clock  `toml:"clock"`
	Netvar Netvar `toml:"netvar"`
	Script Script `toml:"script"`
	Admin  Admin  `toml:"admin"`
	Log    Log    `toml:"log"`
}

type Server struct {
	Listen     string `toml:"listen" comment:"UDP address of the game port"`
	TickHz     int    `toml:"tick_hz" comment:"world ticks per second, 1..100"`
	SyncHz     int    `toml:"sync_hz" comment:"the PlayerSync rate told to clients in ServerHello, 1..100, at most tick_hz"`
	MaxPlayers int    `toml:"max_players" comment:"player slots, 1..1000"`
	Gamemode   string `toml:"gamemode" comment:"gamemode folder with main.lua; empty = the embedded default world"`
}

type Net struct {
	KeepaliveMs int `toml:"keepalive_ms" comment:"send a keepalive after this long without sending, 100..10000"`
	TimeoutMs   int `toml:"timeout_ms" comment:"a peer silent this long is gone, 1000..60000, at least 2 x keepalive_ms"`
	SendQueue   int `toml:"send_queue" comment:"reliable events queued per client (sent and unacked, or waiting), 256..65536"`
	InboundRate int `toml:"inbound_rate" comment:"datagrams per second one connection may send before the rest are dropped and counted"`
}

type World struct {
	PickupDrawDistance   float64 `toml:"pickup_draw_distance" comment:"meters within which a pickup is shown, 1..1000"`
	ObjectStreamDistance float64 `toml:"object_stream_distance" comment:"default stream distance of an object, 1..3000"`
}

type Clock struct {
	Mode       string `toml:"mode" comment:"frozen, running or real"`
	Hours      int    `toml:"hours" comment:"time of day at start, 0..23"`
	Minutes    int    `toml:"minutes" comment:"0..59"`
	MinuteMs   int    `toml:"minute_ms" comment:"running: real milliseconds per game minute, 10..3600000 (1000 = the game's own)"`
	UTCOffsetM int    `toml:"utc_offset_minutes" comment:"real: offset of the shown time from UTC, -720..840"`
	Weather    int    `toml:"weather" comment:"weather at start, 0..22"`
}

type Netvar struct {
	ResyncRate       int `toml:"resync_rate" comment:"entities resynced per tick, server-wide (network_resync_rate)"`
	ResyncRatePlayer int `toml:"resync_rate_player" comment:"entities resynced per tick for one player (network_resync_rate_player)"`
	SyncBytes        int `toml:"sync_bytes" comment:"flush threshold of a batched resync message, bytes (network_sync_bytes)"`
	ClientSetRate    int `toml:"clientset_rate" comment:"ClientSet messages one player may send per second (network_clientset_rate)"`
}

type Script struct {
	BudgetMs int `toml:"budget_ms" comment:"time one Lua callback may run before it is stopped, 1..10000"`
}

type Admin struct {
	Listen string `toml:"listen" comment:"HTTP address of metrics, pprof, health and the live map; empty = off"`
	Token  string `toml:"token" comment:"bearer token; required when listen is not a loopback address"`
}

type Log struct {
	Level  string `toml:"level" comment:"debug, info, warn or error"`
	Format string `toml:"format" comment:"text or json"`
}

// Default is the configuration with no file and no flags.
func Default() Config {
	return Config{
		Server: Server{Listen: ":7777", TickHz: 50, SyncHz: 20, MaxPlayers: 1000},
		Net:    Net{KeepaliveMs: 1000, TimeoutMs: 10000, SendQueue: 4096, InboundRate: 500},
		World:  World{PickupDrawDistance: 100, ObjectStreamDistance: 300},
		Clock:  Clock{Mode: "frozen", Hours: 12, MinuteMs: 1000, Weather: 1},
		Netvar: Netvar{ResyncRate: 32, ResyncRatePlayer: 8, SyncBytes: 8192, ClientSetRate: 30},
		Script: Script{BudgetMs: 100},
		Admin:  Admin{Listen: "127.0.0.1:7780"},
		Log:    Log{Level: "info", Format: "text"},
	}
}

// Error is a bad configuration: the key, its line in the file (0 when the
// value came from a flag or the defaults) and what is wrong.
type Error struct {
	File string
	Line int
	Key  string // dotted: "server.tick_hz"
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Key, e.Msg)
	}
	return fmt.Sprintf("config: %s: %s", e.Key, e.Msg)
}

// Load reads the file at path over the defaults. Unknown keys and values of
// the wrong type or out of range are errors naming the key and the line.
func Load(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	return Parse(path, data)
}

// Parse is Load of data already read; name is used in errors.
func Parse(name string, data []byte) (Config, error) {
	c := Default()
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		var strict *toml.StrictMissingError
		if errors.As(err, &strict) && len(strict.Errors) > 0 {
			e := strict.Errors[0]
			line, _ := e.Position()
			return Config{}, &Error{File: name, Line: line, Key: strings.Join(e.Key(), "."), Msg: "unknown key"}
		}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, _ := de.Position()
			return Config{}, &Error{File: name, Line: line, Key: strings.Join(de.Key(), "."), Msg: strings.TrimPrefix(de.Error(), "toml: ")}
		}
		return Config{}, &Error{File: name, Key: "(file)", Msg: err.Error()}
	}
	if err := c.Validate(); err != nil {
		var ce *Error
		if errors.As(err, &ce) {
			ce.File = name
			ce.Line = keyLines(data)[ce.Key]
		}
		return Config{}, err
	}
	return c, nil
}

// Marshal writes c as TOML with every key's comment: `--print-config`.
func Marshal(c Config) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString("# dlmp server configuration. Every key is shown with its effective value.\n\n")
	enc := toml.NewEncoder(&buf)
	enc.SetIndentTables(false)
	if err := enc.Encode(c); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
