// Package bot runs headless players on the client SDK: N connections, each
// with behaviours (wander, race, pickups, waypoints, chat), for demos, soak
// and load runs. Run returns one Summary of the whole run.
//
// Each bot moves in its client's OnTick, at the sync rate; the bots' clients
// are ticked by shared client.Tickers, one per 100 bots. Bots share nothing
// else but the summary counters, which are merged at the end.
package bot

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"dlmp/client"
)

// Behaviours a bot can run.
const (
	Wander    = "wander"    // walk in random directions
	Race      = "race"      // run to the nearest shown checkpoint
	Pickups   = "pickups"   // run to the nearest shown pickup and touch it
	Waypoints = "waypoints" // set a random map waypoint now and then
	Chat      = "chat"      // say something now and then
)

// AllBehaviours is every behaviour, the default.
var AllBehaviours = []string{Wander, Race, Pickups, Waypoints, Chat}

// Config configures a run. Zero fields take the defaults in brackets.
type Config struct {
	Server     string        // game address
	N          int           // bots [1]
	Duration   time.Duration // how long each bot stays [10s]
	Rate       int           // PlayerSync per second [20]
	Behaviours []string      // [AllBehaviours]
	Ramp       time.Duration // spread of the connection times [N × 2 ms]
	Seed       uint64        // random seed [1]
	Log        *slog.Logger
}

// Summary is the result of a run.
type Summary struct {
	Connected    int            `json:"connected"`
	Failed       int            `json:"failed"`
	Disconnects  map[string]int `json:"disconnects"` // by reason name, before the end of the run
	Events       int            `json:"reliable_events"`
	Lost         int            `json:"events_lost"`
	Invalid      int            `json:"events_invalid"`
	BytesIn      int            `json:"bytes_in"`
	BytesOut     int            `json:"bytes_out"`
	DatagramsIn  int            `json:"datagrams_in"`
	DatagramsOut int            `json:"datagrams_out"`
	RTTp50ms     float64        `json:"rtt_p50_ms"`
	RTTp99ms     float64        `json:"rtt_p99_ms"`
	Touches      int            `json:"touches"`
	Chats        int            `json:"chats"`
	Waypoints    int            `json:"waypoints"`
	Seconds      float64        `json:"seconds"`
}

func (c *Config) fill() {
	if c.N <= 0 {
		c.N = 1
	}
	if c.Duration <= 0 {
		c.Duration = 10 * time.Second
	}
	if c.Rate <= 0 {
		c.Rate = 20
	}
	if len(c.Behaviours) == 0 {
		c.Behaviours = AllBehaviours
	}
	if c.Ramp <= 0 {
		c.Ramp = time.Duration(c.N) * 2 * time.Millisecond
	}
	if c.Seed == 0 {
		c.Seed = 1
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
}

// Check reports an unknown behaviour.
func (c *Config) Check() error {
	for _, b := range c.Behaviours {
		if !slices.Contains(AllBehaviours, b) {
			return fmt.Errorf("bot: unknown behaviour %q (want one of %v)", b, AllBehaviours)
		}
	}
	return nil
}

// Run connects the bots, runs them for the duration and returns the summary.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	cfg.fill()
	if err := cfg.Check(); err != nil {
		return Summary{}, err
	}
	start := time.Now()
	tickers := startTickers(cfg.N)
	defer func() {
		for _, t := range tickers {
			t.Stop()
		}
	}()
	results := make([]result, cfg.N)
	var wg sync.WaitGroup
	for i := range cfg.N {
		wg.Add(1)
		go func() {
			defer wg.Done()
			delay := cfg.Ramp * time.Duration(i) / time.Duration(cfg.N)
			select {
			case <-time.After(delay):
			case <-ctx.Done():
				return
			}
			b := &bot{cfg: &cfg, rng: rand.New(rand.NewPCG(cfg.Seed, uint64(i))), behaviours: cfg.Behaviours, ticker: tickers[i%len(tickers)]}
			results[i] = b.run(ctx)
		}()
	}
	wg.Wait()
	return summarize(results, time.Since(start)), nil
}

// botsPerTicker is how many bots share one client.Ticker: their ticks,
// and so their PlayerSyncs, come in one burst (~1 ms for 100), which costs
// the bot process less than the same sends spread over the period: on
// loopback a send also wakes the server's reader, once a burst instead of
// once a send (decision 0336). 1000 bots tick from 10 timers and
// goroutines instead of 1000, the bursts' phases spread over the period
// (the RTT the bots report waits for the server's tick: from one phase,
// it would be that phase's wait).
const botsPerTicker = 100

// startTickers starts the tickers of n bots, at the sync rate the server asks
// for (ServerHello.sync_hz), their phases spread over the period.
func startTickers(n int) []*client.Ticker {
	ts := make([]*client.Ticker, (n+botsPerTicker-1)/botsPerTicker)
	for i := range ts {
		ts[i] = client.NewTicker(0, float64(i)/float64(len(ts)))
	}
	return ts
}

// result is one bot's outcome.
type result struct {
	connected  bool
	disconnect string // reason name if the server ended it during the run
	stats      client.Stats
	rtts       []time.Duration
	chats      int
	waypoints  int
}

func summarize(rs []result, d time.Duration) Summary {
	s := Summary{Disconnects: map[string]int{}, Seconds: d.Seconds()}
	var rtts []time.Duration
	for _, r := range rs {
		if !r.connected {
			s.Failed++
			continue
		}
		s.Connected++
		if r.disconnect != "" {
			s.Disconnects[r.disconnect]++
		}
		st := r.stats
		s.Events += st.Events
		s.Lost += st.Lost
		s.Invalid += st.Invalid
		s.BytesIn += st.BytesIn
		s.BytesOut += st.BytesOut
		s.DatagramsIn += st.DatagramsIn
		s.DatagramsOut += st.DatagramsOut
		s.Touches += st.Touches
		s.Chats += r.chats
		s.Waypoints += r.waypoints
		rtts = append(rtts, r.rtts...)
	}
	if len(rtts) > 0 {
		slices.Sort(rtts)
		ms := func(d time.Duration) float64 { return math.Round(float64(d.Microseconds())/10) / 100 }
		s.RTTp50ms = ms(rtts[len(rtts)/2])
		s.RTTp99ms = ms(rtts[min(len(rtts)-1, len(rtts)*99/100)])
	}
	return s
}
