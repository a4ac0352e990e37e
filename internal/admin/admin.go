// Package admin is the server's operations HTTP listener: Prometheus metrics,
// pprof, a health check, the live map page with its server-sent event stream,
// and the console (over HTTP and on stdin).
//
// The package owns no world state. It reads the server through small
// interfaces the caller implements: [Source] for the metrics, [MapSource] for
// the map, [Console] for the commands. Every method of those interfaces is
// called from HTTP goroutines, never from the tick, so an implementation
// must be safe for concurrent use (typically it reads a snapshot the tick
// publishes, or hands the request to the tick and waits; [MapBoard] is such a
// snapshot for the map). The tick reports itself with [Server.ObserveTick],
// which is safe to call from any goroutine.
//
// Endpoints:
//
//	GET  /metrics        Prometheus text format, private registry
//	GET  /debug/pprof/   net/http/pprof on this server's own mux
//	GET  /healthz        200 "ok", or 503 when the last tick is too old
//	GET  /map            the live map page (embedded HTML, JS and CSS)
//	GET  /map/events     server-sent events: one MapState JSON per interval
//	GET  /map/scopes     the scopes that hold something, as JSON
//	POST /console        one command line in the body; the output in the answer
//
// When Config.Listen is not a loopback address, every endpoint requires the
// token (see [Config.Token]); on loopback none is needed.
package admin

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Defaults of the Config fields left zero.
const (
	DefaultHealthMaxAge = 2 * time.Second
	DefaultMapInterval  = 250 * time.Millisecond
	DefaultMapMaxItems  = 5000
)

// Config configures a Server. Listen and Token are config keys admin.listen
// and admin.token; the zero values of the others are useful.
type Config struct {
	// Listen is the TCP address, host:port. A host that is not a loopback
	// address (including an empty host, meaning every interface) makes the
	// token mandatory.
	Listen string
	// Token is the bearer token. Clients send "Authorization: Bearer <token>",
	// or HTTP Basic with the token as the password (what a browser can do).
	Token string
	// HealthMaxAge is how old the last tick may be before /healthz answers
	// 503. Zero means DefaultHealthMaxAge.
	HealthMaxAge time.Duration
	// MapInterval is the time between two snapshots on /map/events. Zero
	// means DefaultMapInterval.
	MapInterval time.Duration
	// MapMaxItems is the most items of one kind (players, pickups...) a
	// map snapshot carries; the page shows "n of total" past it. Zero means
	// DefaultMapMaxItems.
	MapMaxItems int
	// Now is the clock of the health check. Nil means time.Now.
	Now func() time.Time
	// Logger receives the listener's errors. Nil means slog.Default().
	Logger *slog.Logger
}

// Server is the admin listener. Create it with New; it serves once Start is
// called, or through Handler in any http.Server.
type Server struct {
	// Immutable after New.
	cfg      Config
	needAuth bool
	src      Source
	maps     MapSource
	con      Console
	reg      *prometheus.Registry
	tick     tickMetrics
	mux      *http.ServeMux

	// Written by ObserveTick, read by /healthz.
	lastTick atomic.Int64 // unix nanoseconds of the end of the last tick; 0 = none yet
	watchers atomic.Int32 // open /map/events streams

	// Set by Start.
	http *http.Server
	ln   net.Listener
	stop context.CancelFunc // ends the requests' context, event streams included
}

// New returns a server over the given sources. Any of src, maps and con may be
// nil: its endpoints then answer 503 (without src, /metrics has only the tick,
// Go and process metrics). It is an error to listen off loopback without a
// token, and to give no listen address.
func New(cfg Config, src Source, maps MapSource, con Console) (*Server, error) {
	if cfg.HealthMaxAge <= 0 {
		cfg.HealthMaxAge = DefaultHealthMaxAge
	}
	if cfg.MapInterval <= 0 {
		cfg.MapInterval = DefaultMapInterval
	}
	if cfg.MapMaxItems <= 0 {
		cfg.MapMaxItems = DefaultMapMaxItems
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Listen == "" {
		return nil, errors.New(`admin: listen: empty; admin.listen = "" means no admin listener, so do not create one`)
	}
	host, _, err := net.SplitHostPort(cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("admin: listen: must be host:port, got %q", cfg.Listen)
	}
	needAuth := !Loopback(host)
	if needAuth && cfg.Token == "" {
		return nil, fmt.Errorf("admin: token: required when listen (%q) is not a loopback address", cfg.Listen)
	}
	s := &Server{cfg: cfg, needAuth: needAuth, src: src, maps: maps, con: con}
	s.reg, s.tick = newRegistry(src)
	s.mux = s.routes()
	return s, nil
}

// Handler returns the server's handler, with authentication applied.
func (s *Server) Handler() http.Handler {
	if !s.needAuth {
		return s.mux
	}
	return s.auth(s.mux)
}

// ObserveTick records one world tick that ended at end and took took: it
// feeds the tick duration histogram and the health check.
func (s *Server) ObserveTick(end time.Time, took time.Duration) {
	s.tick.took.Observe(took.Seconds())
	s.lastTick.Store(end.UnixNano())
}

// ObservePhase records how long one named phase of a tick took.
func (s *Server) ObservePhase(phase string, took time.Duration) {
	s.tick.phase.WithLabelValues(phase).Observe(took.Seconds())
}

// ObserveTickCPU records the CPU time of a tick's thread.
func (s *Server) ObserveTickCPU(cpu time.Duration) {
	s.tick.cpu.Observe(cpu.Seconds())
}

// Start listens on Config.Listen and serves in a new goroutine until Close.
func (s *Server) Start() error {
	ln, err := net.Listen("tcp", s.cfg.Listen)
	if err != nil {
		return fmt.Errorf("admin: %w", err)
	}
	s.ln = ln
	ctx, stop := context.WithCancel(context.Background())
	s.stop = stop
	s.http = &http.Server{
		Handler:           s.Handler(),
		BaseContext:       func(net.Listener) context.Context { return ctx },
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(s.cfg.Logger.Handler(), slog.LevelWarn),
	}
	go func() {
		if err := s.http.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.cfg.Logger.Error("admin listener stopped", "err", err)
		}
	}()
	return nil
}

// Addr is the address Start listens on, or nil before Start.
func (s *Server) Addr() net.Addr {
	if s.ln == nil {
		return nil
	}
	return s.ln.Addr()
}

// Close stops the listener and ends open connections, event streams included.
func (s *Server) Close() error {
	if s.http == nil {
		return nil
	}
	s.stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := s.http.Shutdown(ctx); err != nil {
		return s.http.Close()
	}
	return nil
}
