package admin

import (
	"strings"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// scrape fetches /metrics and parses it with the Prometheus text parser.
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	code, body := do(t, "GET", url+"/metrics", "")
	if code != 200 {
		t.Fatalf("GET /metrics: status %d, want 200: %s", code, body)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("parsing /metrics: %v\n%s", err, body)
	}
	return fams
}

// value returns the value of the family's metric with the labels (name,
// value pairs), failing when there is none.
func value(t *testing.T, fams map[string]*dto.MetricFamily, name string, labels ...string) float64 {
	t.Helper()
	f, ok := fams[name]
	if !ok {
		t.Fatalf("metric family %s missing", name)
	}
next:
	for _, m := range f.GetMetric() {
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		for i := 0; i+1 < len(labels); i += 2 {
			if have[labels[i]] != labels[i+1] {
				continue next
			}
		}
		switch f.GetType() {
		case dto.MetricType_COUNTER:
			return m.GetCounter().GetValue()
		case dto.MetricType_GAUGE:
			return m.GetGauge().GetValue()
		}
		t.Fatalf("%s: type %v, want counter or gauge", name, f.GetType())
	}
	t.Fatalf("%s%v: no such metric", name, labels)
	return 0
}

func TestMetricsFromSource(t *testing.T) {
	s, ts := newTestServer(t, Config{})
	now := time.Unix(1_800_000_000, 0)
	for _, d := range []time.Duration{300 * time.Microsecond, 4 * time.Millisecond, 40 * time.Millisecond} {
		s.ObserveTick(now, d)
	}
	fams := scrape(t, ts.URL)

	tests := []struct {
		name   string
		labels []string
		typ    dto.MetricType
		want   float64
	}{
		{"dlmp_players", nil, dto.MetricType_GAUGE, 3},
		{"dlmp_datagrams_total", []string{"direction", "in"}, dto.MetricType_COUNTER, 1000},
		{"dlmp_datagrams_total", []string{"direction", "out"}, dto.MetricType_COUNTER, 2000},
		{"dlmp_bytes_total", []string{"direction", "in"}, dto.MetricType_COUNTER, 50_000},
		{"dlmp_bytes_total", []string{"direction", "out"}, dto.MetricType_COUNTER, 900_000},
		{"dlmp_drops_total", []string{"reason", "bad_token"}, dto.MetricType_COUNTER, 4},
		{"dlmp_drops_total", []string{"reason", "rate"}, dto.MetricType_COUNTER, 7},
		{"dlmp_drops_total", []string{"reason", "stale"}, dto.MetricType_COUNTER, 0},
		{"dlmp_retransmissions_total", nil, dto.MetricType_COUNTER, 12},
		{"dlmp_send_queue_events", nil, dto.MetricType_GAUGE, 40},
		{"dlmp_send_queue_max_events", nil, dto.MetricType_GAUGE, 25},
		{"dlmp_lua_errors_total", nil, dto.MetricType_COUNTER, 2},
		{"dlmp_lua_seconds_total", nil, dto.MetricType_COUNTER, 1.5},
		{"dlmp_netvar_bytes_total", []string{"var", "hunger"}, dto.MetricType_COUNTER, 120},
		{"dlmp_netvar_bytes_total", []string{"var", "wanted_level"}, dto.MetricType_COUNTER, 64},
		{"dlmp_box_cache_queries_total", []string{"kind", "objects"}, dto.MetricType_COUNTER, 5000},
		{"dlmp_box_cache_grid_answers_total", []string{"kind", "objects"}, dto.MetricType_COUNTER, 30},
		{"dlmp_box_cache_builds_total", []string{"kind", "objects"}, dto.MetricType_COUNTER, 12},
		{"dlmp_box_cache_boxes", []string{"kind", "objects"}, dto.MetricType_GAUGE, 9},
		{"dlmp_views_steady_total", []string{"kind", "objects"}, dto.MetricType_COUNTER, 4000},
		{"dlmp_view_steps_total", []string{"kind", "objects", "how", "step"}, dto.MetricType_COUNTER, 700},
		{"dlmp_view_steps_total", []string{"kind", "objects", "how", "shell"}, dto.MetricType_COUNTER, 20},
		{"dlmp_view_steps_total", []string{"kind", "objects", "how", "step_refused"}, dto.MetricType_COUNTER, 3},
		{"dlmp_view_steps_total", []string{"kind", "objects", "how", "band"}, dto.MetricType_COUNTER, 40},
		{"dlmp_view_steps_total", []string{"kind", "objects", "how", "band_refused"}, dto.MetricType_COUNTER, 1},
		{"dlmp_views_steady_total", []string{"kind", "vehicles"}, dto.MetricType_COUNTER, 900},
	}
	for _, tt := range tests {
		if got := fams[tt.name].GetType(); got != tt.typ {
			t.Errorf("%s: type %v, want %v", tt.name, got, tt.typ)
		}
		if got := value(t, fams, tt.name, tt.labels...); got != tt.want {
			t.Errorf("%s%v = %v, want %v", tt.name, tt.labels, got, tt.want)
		}
	}
	if got := len(fams["dlmp_box_cache_queries_total"].GetMetric()); got != 1 {
		t.Errorf("dlmp_box_cache_queries_total has %d series, want 1 (vehicles have no box cache)", got)
	}
	if got := len(fams["dlmp_drops_total"].GetMetric()); got != 3 {
		t.Errorf("dlmp_drops_total has %d series, want 3 (one per reason)", got)
	}

	h := fams["dlmp_tick_duration_seconds"].GetMetric()[0].GetHistogram()
	if got := h.GetSampleCount(); got != 3 {
		t.Errorf("tick histogram count %d, want 3", got)
	}
	if got, want := h.GetSampleSum(), 0.0443; got < want-1e-9 || got > want+1e-9 {
		t.Errorf("tick histogram sum %v, want %v", got, want)
	}
	buckets := map[float64]uint64{}
	for _, b := range h.GetBucket() {
		buckets[b.GetUpperBound()] = b.GetCumulativeCount()
	}
	for le, want := range map[float64]uint64{.0005: 1, .002: 1, .005: 2, .033: 2, .05: 3} {
		if got := buckets[le]; got != want {
			t.Errorf("tick bucket le=%v: %d, want %d", le, got, want)
		}
	}

	for _, name := range []string{"go_goroutines", "go_memstats_alloc_bytes", "process_cpu_seconds_total"} {
		if _, ok := fams[name]; !ok {
			t.Errorf("%s missing: the Go and process collectors are not registered", name)
		}
	}
}

func TestMetricsFollowSource(t *testing.T) {
	src := &mutableSource{}
	s, err := New(Config{Listen: "127.0.0.1:0"}, src, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := newHTTPTest(t, s)
	src.set(func(st *Stats) { st.Players = 1 })
	if got := value(t, scrape(t, ts), "dlmp_players"); got != 1 {
		t.Fatalf("players %v, want 1", got)
	}
	src.set(func(st *Stats) { st.Players, st.DatagramsIn = 7, 99 })
	fams := scrape(t, ts)
	if got := value(t, fams, "dlmp_players"); got != 7 {
		t.Errorf("players %v after change, want 7", got)
	}
	if got := value(t, fams, "dlmp_datagrams_total", "direction", "in"); got != 99 {
		t.Errorf("datagrams in %v after change, want 99", got)
	}
}

func TestMetricsWithoutSource(t *testing.T) {
	s, err := New(Config{Listen: "127.0.0.1:0"}, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	fams := scrape(t, newHTTPTest(t, s))
	if _, ok := fams["dlmp_tick_duration_seconds"]; !ok {
		t.Error("dlmp_tick_duration_seconds missing without a source")
	}
	if _, ok := fams["dlmp_players"]; ok {
		t.Error("dlmp_players present without a source")
	}
}

// mutableSource is a Source the test changes between scrapes.
type mutableSource struct {
	mu sync.Mutex
	st Stats
}

func (m *mutableSource) Stats() Stats { m.mu.Lock(); defer m.mu.Unlock(); return m.st }

func (m *mutableSource) set(f func(*Stats)) { m.mu.Lock(); f(&m.st); m.mu.Unlock() }
