package main

import (
	"log/slog"

	"dlmp/internal/config"
	"dlmp/internal/world"
)

// gamemodeFor returns what builds the configured gamemode.
func gamemodeFor(cfg config.Config, log *slog.Logger) (func(*world.World) (world.Gamemode, error), error) {
	return nil, nil
}
