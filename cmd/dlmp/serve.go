package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"dlmp/internal/admin"
	"dlmp/internal/config"
	"dlmp/internal/server"
)

func init() {
	register(command{name: "serve", summary: "run the server (UDP game port, world, gamemode)", run: serve})
}

// serveFlags are the flags that override the config file.
type serveFlags struct {
	config, listen, admin, gamemode, logLevel, logFormat string
	tickHz, syncHz, maxPlayers, tickFIFO, writerFIFO     int
	printConfig                                          bool
}

func serve(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f serveFlags
	fs.StringVar(&f.config, "config", "", "TOML config file (every key has a default; see --print-config)")
	fs.StringVar(&f.listen, "listen", "", "UDP game address (server.listen, default :7777)")
	fs.StringVar(&f.admin, "admin", "", "admin HTTP address (admin.listen, default 127.0.0.1:7780)")
	fs.StringVar(&f.gamemode, "gamemode", "", "gamemode folder with main.lua (server.gamemode; default: the embedded world)")
	fs.IntVar(&f.tickHz, "tick-hz", 0, "world ticks per second (server.tick_hz)")
	fs.IntVar(&f.syncHz, "sync-hz", 0, "PlayerSync rate told to clients, at most the tick rate (server.sync_hz)")
	fs.IntVar(&f.maxPlayers, "max-players", 0, "player slots (server.max_players)")
	fs.IntVar(&f.tickFIFO, "tick-fifo", 0, "run the tick's OS thread in the real-time class SCHED_FIFO at this priority, 1..99 (needs CAP_SYS_NICE; 0: not)")
	fs.IntVar(&f.writerFIFO, "writer-fifo", 0, "run the writer's OS thread (the datagrams out) in SCHED_FIFO at this priority, below --tick-fifo's (needs CAP_SYS_NICE; 0: not)")
	fs.StringVar(&f.logLevel, "log-level", "", "debug, info, warn or error (log.level)")
	fs.StringVar(&f.logFormat, "log-format", "", "text or json (log.format)")
	fs.BoolVar(&f.printConfig, "print-config", false, "print the effective configuration as TOML and exit")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg, err := loadConfig(f)
	if err != nil {
		fmt.Fprintln(stderr, "dlmp serve:", err)
		return 1
	}
	if f.printConfig {
		out, err := config.Marshal(cfg)
		if err != nil {
			fmt.Fprintln(stderr, "dlmp serve:", err)
			return 1
		}
		stdout.Write(out)
		return 0
	}
	log := newLogger(cfg, stderr)
	opts, err := gamemodeFor(cfg, log)
	if err != nil {
		fmt.Fprintln(stderr, "dlmp serve:", err)
		return 1
	}
	opts.TickFIFO = f.tickFIFO
	opts.WriterFIFO = f.writerFIFO
	srv, err := server.New(opts, time.Now())
	if err != nil {
		fmt.Fprintln(stderr, "dlmp serve:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if stdin != nil {
		go admin.ReadConsole(stdin, srv.Console(), stdout) // status, kick, network_dump, ...
	}
	if err := srv.Run(ctx); err != nil {
		fmt.Fprintln(stderr, "dlmp serve:", err)
		return 1
	}
	return 0
}

// loadConfig reads the file (if any) over the defaults, then applies the
// flags, then validates the result.
func loadConfig(f serveFlags) (config.Config, error) {
	cfg := config.Default()
	if f.config != "" {
		var err error
		if cfg, err = config.Load(f.config); err != nil {
			return cfg, err
		}
	}
	if f.listen != "" {
		cfg.Server.Listen = f.listen
	}
	if f.admin != "" {
		cfg.Admin.Listen = f.admin
	}
	if f.gamemode != "" {
		cfg.Server.Gamemode = f.gamemode
	}
	if f.tickHz != 0 {
		cfg.Server.TickHz = f.tickHz
	}
	if f.syncHz != 0 {
		cfg.Server.SyncHz = f.syncHz
	}
	if f.maxPlayers != 0 {
		cfg.Server.MaxPlayers = f.maxPlayers
	}
	if f.logLevel != "" {
		cfg.Log.Level = f.logLevel
	}
	if f.logFormat != "" {
		cfg.Log.Format = f.logFormat
	}
	return cfg, cfg.Validate()
}

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	var level slog.Level
	level.UnmarshalText([]byte(cfg.Log.Level)) // validated
	opts := &slog.HandlerOptions{Level: level}
	if cfg.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
