package main

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"dlmp/internal/config"
	"dlmp/internal/gamemode"
	"dlmp/internal/script"
	"dlmp/internal/world"
)

// gamemodeFor returns what builds the configured gamemode: the folder of
// server.gamemode, or the embedded default world when it is empty.
func gamemodeFor(cfg config.Config, log *slog.Logger) (func(*world.World) (world.Gamemode, error), error) {
	fsys, name := gamemode.Default(), "freeroam"
	if dir := cfg.Server.Gamemode; dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "main.lua")); err != nil {
			return nil, fmt.Errorf("gamemode: %w", err)
		}
		fsys, name = os.DirFS(dir), filepath.Base(dir)
	}
	opts := script.Options{Name: name, Budget: time.Duration(cfg.Script.BudgetMs) * time.Millisecond, Log: log}
	return func(w *world.World) (world.Gamemode, error) { return gamemode.New(w, fsys, time.Now(), opts) }, nil
}
