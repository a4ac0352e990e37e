package admin

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Stats are the server's counters at one moment, read by every scrape of
// /metrics. Counters are cumulative since start; gauges are current values.
type Stats struct {
	Players int // gauge: connected players

	DatagramsIn, DatagramsOut uint64 // counters: UDP datagrams
	BytesIn, BytesOut         uint64 // counters: UDP payload bytes
	// Drops counts dropped datagrams and packets by reason (the names of
	// transport.DropReason: "bad_token", "rate", ...).
	Drops map[string]uint64

	Retransmits  uint64 // counter: reliable-lane transmissions after the first
	SendQueue    int    // gauge: reliable events queued, all players together
	SendQueueMax int    // gauge: the deepest one player's queue

	LuaErrors uint64        // counter: callbacks that failed or overran
	LuaTime   time.Duration // counter: time spent in Lua callbacks

	// NetvarBytes counts the bytes of network-var updates sent, by var name.
	NetvarBytes map[string]uint64

	// Caches are the world's box caches by kind ("objects", "pickups",
	// ...; "vehicles" has only Steady): docs/decisions/0205-world-box-caches.md.
	Caches map[string]CacheStats
}

// CacheStats are one kind's box caches: counters since start, and the
// boxes held (a gauge).
type CacheStats struct {
	Queries uint64 // queries that went to a cache
	Grid    uint64 // of them, answered by the grid without a box
	Builds  uint64 // boxes built (again, after an invalidation)
	Steady  uint64 // views found unchanged without a list
	Boxes   int    // gauge: boxes held now
	// Views of moving players told as a step from their last answer:
	// patched (Shelled of them from the view's shell) or refused (listed).
	Stepped, Shelled, Refused uint64
	// Object views of settled players patched from their box's band, and
	// refused.
	Banded, BandRefused uint64
}

// Source gives the counters. The server implements it from
// transport.Server.Stats, the world and the script runtime. Stats is called
// once per scrape, from an HTTP goroutine.
type Source interface {
	Stats() Stats
}

// Metric names, all in the dlmp namespace.
var (
	descPlayers     = desc("players", "Connected players.")
	descDatagrams   = desc("datagrams_total", "UDP datagrams, by direction (in, out).", "direction")
	descBytes       = desc("bytes_total", "UDP payload bytes, by direction (in, out).", "direction")
	descDrops       = desc("drops_total", "Datagrams or packets dropped without effect, by reason.", "reason")
	descRetransmits = desc("retransmissions_total", "Reliable-lane transmissions after the first.")
	descSendQueue   = desc("send_queue_events", "Reliable events queued for sending, all players together.")
	descSendMax     = desc("send_queue_max_events", "Reliable events queued for the one player with the deepest queue.")
	descLuaErrors   = desc("lua_errors_total", "Lua callbacks that failed or overran their budget.")
	descLuaTime     = desc("lua_seconds_total", "Time spent in Lua callbacks.")
	descNetvarBytes = desc("netvar_bytes_total", "Bytes of network-var updates sent, by var.", "var")
	descCacheQuery  = desc("box_cache_queries_total", "Streaming queries sent to a box cache, by kind.", "kind")
	descCacheGrid   = desc("box_cache_grid_answers_total", "Box cache queries the grid answered (no box), by kind.", "kind")
	descCacheBuilds = desc("box_cache_builds_total", "Boxes built, by kind.", "kind")
	descCacheBoxes  = desc("box_cache_boxes", "Boxes held, by kind.", "kind")
	descViewsSteady = desc("views_steady_total", "Views found unchanged without a list, by kind.", "kind")
	descViewSteps   = desc("view_steps_total", "Views patched from their last answer, by kind and how: step (a moving player's), shell (of those, told from the view's shell), step_refused (listed instead), band (a settled player's object view from its box's band), band_refused.", "kind", "how")
)

func desc(name, help string, labels ...string) *prometheus.Desc {
	return prometheus.NewDesc("dlmp_"+name, help, labels, nil)
}

// tickBuckets cover ticks from well under a millisecond to a stalled tick.
var tickBuckets = []float64{.0005, .001, .002, .005, .01, .02, .033, .05, .1, .25, 1}

// tickMetrics are the histograms the tick feeds itself.
type tickMetrics struct {
	took  prometheus.Histogram     // wall time of a tick
	phase *prometheus.HistogramVec // wall time of each phase, by name
	cpu   prometheus.Histogram     // CPU time of a tick's thread
}

// newRegistry returns a private registry with the Go and process collectors,
// the tick histograms and, when src is not nil, the collector over src.
func newRegistry(src Source) (*prometheus.Registry, tickMetrics) {
	reg := prometheus.NewRegistry()
	tm := tickMetrics{
		took: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "dlmp_tick_duration_seconds",
			Help:    "Time one world tick took.",
			Buckets: tickBuckets,
		}),
		phase: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "dlmp_tick_phase_seconds",
			Help:    "Time one phase of a world tick took (receive, world, netvars, gamemode, flush).",
			Buckets: tickBuckets,
		}, []string{"phase"}),
		cpu: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "dlmp_tick_cpu_seconds",
			Help:    "CPU time of the tick's thread during one world tick (ticks that changed thread are left out).",
			Buckets: tickBuckets,
		}),
	}
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		tm.took, tm.phase, tm.cpu,
	)
	if src != nil {
		reg.MustRegister(sourceCollector{src})
	}
	return reg, tm
}

// sourceCollector turns one Stats per scrape into constant metrics.
type sourceCollector struct{ src Source }

func (c sourceCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{
		descPlayers, descDatagrams, descBytes, descDrops, descRetransmits,
		descSendQueue, descSendMax, descLuaErrors, descLuaTime, descNetvarBytes,
		descCacheQuery, descCacheGrid, descCacheBuilds, descCacheBoxes, descViewsSteady, descViewSteps,
	} {
		ch <- d
	}
}

func (c sourceCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.src.Stats()
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	counter := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, labels...)
	}
	gauge(descPlayers, float64(st.Players))
	counter(descDatagrams, float64(st.DatagramsIn), "in")
	counter(descDatagrams, float64(st.DatagramsOut), "out")
	counter(descBytes, float64(st.BytesIn), "in")
	counter(descBytes, float64(st.BytesOut), "out")
	for reason, n := range st.Drops {
		counter(descDrops, float64(n), reason)
	}
	counter(descRetransmits, float64(st.Retransmits))
	gauge(descSendQueue, float64(st.SendQueue))
	gauge(descSendMax, float64(st.SendQueueMax))
	counter(descLuaErrors, float64(st.LuaErrors))
	counter(descLuaTime, st.LuaTime.Seconds())
	for name, n := range st.NetvarBytes {
		counter(descNetvarBytes, float64(n), name)
	}
	for kind, cs := range st.Caches {
		counter(descViewsSteady, float64(cs.Steady), kind)
		if kind == "vehicles" { // no box cache: views found steady only
			continue
		}
		counter(descCacheQuery, float64(cs.Queries), kind)
		counter(descCacheGrid, float64(cs.Grid), kind)
		counter(descCacheBuilds, float64(cs.Builds), kind)
		gauge(descCacheBoxes, float64(cs.Boxes), kind)
		counter(descViewSteps, float64(cs.Stepped), kind, "step")
		counter(descViewSteps, float64(cs.Shelled), kind, "shell")
		counter(descViewSteps, float64(cs.Refused), kind, "step_refused")
		if kind == "objects" {
			counter(descViewSteps, float64(cs.Banded), kind, "band")
			counter(descViewSteps, float64(cs.BandRefused), kind, "band_refused")
		}
	}
}

// metrics serves the private registry.
func (s *Server) metrics() http.Handler {
	return promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{
		ErrorLog:      slogPrinter{s},
		ErrorHandling: promhttp.ContinueOnError,
	})
}

// slogPrinter adapts the logger to promhttp's Logger.
type slogPrinter struct{ s *Server }

func (p slogPrinter) Println(v ...any) { p.s.cfg.Logger.Warn("metrics", "err", v) }
