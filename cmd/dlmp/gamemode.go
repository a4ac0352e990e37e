package main

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"dlmp/internal/config"
	"dlmp/internal/gamemode"
	"dlmp/internal/netvar"
	"dlmp/internal/script"
	"dlmp/internal/server"
	"dlmp/internal/world"
)

// gamemodeFor returns what builds the configured gamemode — the folder of
// server.gamemode, or the embedded default world when it is empty — and the
// server options that give it network vars (dlmp.network).
func gamemodeFor(cfg config.Config, log *slog.Logger) (server.Options, error) {
	fsys, name := gamemode.Default(), "freeroam"
	if dir := cfg.Server.Gamemode; dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "main.lua")); err != nil {
			return server.Options{}, fmt.Errorf("gamemode: %w", err)
		}
		fsys, name = os.DirFS(dir), filepath.Base(dir)
	}
	opts := script.Options{Name: name, Budget: time.Duration(cfg.Script.BudgetMs) * time.Millisecond, Log: log}
	reg := netvar.NewRegistry()
	reg.SetLogger(log)
	m := &gamemode.Mode{Netvars: reg}
	return server.Options{
		Config: cfg,
		Log:    log,
		Gamemode: func(w *world.World) (world.Gamemode, error) {
			if err := m.Start(w, fsys, time.Now(), opts); err != nil {
				return nil, err
			}
			return m, nil
		},
		Netvars:      m.Netvars,
		NetvarsReady: m.AttachNetvars,
	}, nil
}
