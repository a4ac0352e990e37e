package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"dlmp/internal/bot"
)

func init() {
	register(command{name: "bot", summary: "run headless players against a server", run: runBots})
}

func runBots(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg bot.Config
	var behaviours string
	var asJSON bool
	var cpuProfile string
	fs.IntVar(&cfg.N, "n", 1, "number of bots")
	fs.StringVar(&cfg.Server, "server", "127.0.0.1:7777", "server game address")
	fs.DurationVar(&cfg.Duration, "duration", 10*time.Second, "how long the bots play")
	fs.IntVar(&cfg.Rate, "rate", 20, "PlayerSync per second per bot")
	fs.StringVar(&behaviours, "behaviours", strings.Join(bot.AllBehaviours, ","), "comma-separated: "+strings.Join(bot.AllBehaviours, ", "))
	fs.DurationVar(&cfg.Ramp, "ramp", 0, "spread of the connection times (default n × 2ms)")
	fs.BoolVar(&asJSON, "json", false, "print one JSON summary at the end")
	fs.StringVar(&cpuProfile, "cpuprofile", "", "write the bot process's CPU profile over the run to this file")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg.Behaviours = strings.Split(behaviours, ",")
	if err := cfg.Check(); err != nil {
		fmt.Fprintln(stderr, "dlmp bot:", err)
		return 2
	}
	cfg.Log = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	if cpuProfile != "" {
		f, err := os.Create(cpuProfile)
		if err != nil {
			fmt.Fprintln(stderr, "dlmp bot:", err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(stderr, "dlmp bot:", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum, err := bot.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintln(stderr, "dlmp bot:", err)
		return 1
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.Encode(sum)
	} else {
		fmt.Fprintf(stdout, "%d connected, %d failed, %d events (%d lost), %d disconnects %v, rtt p50 %.1f ms p99 %.1f ms\n",
			sum.Connected, sum.Failed, sum.Events, sum.Lost, len(sum.Disconnects), sum.Disconnects, sum.RTTp50ms, sum.RTTp99ms)
	}
	if sum.Failed > 0 || sum.Lost > 0 {
		return 1
	}
	return 0
}
