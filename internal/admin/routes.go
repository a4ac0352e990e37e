package admin

import (
	"net/http"
	"net/http/pprof"
	"time"
)

// routes builds the server's own mux; nothing is registered on
// http.DefaultServeMux.
func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.metrics())
	mux.HandleFunc("GET /healthz", s.healthz)

	mux.HandleFunc("GET /debug/pprof/", pprof.Index)
	mux.HandleFunc("GET /debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("GET /debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("POST /debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)

	mux.HandleFunc("GET /map", s.mapPage)
	mux.Handle("GET /map/static/", http.StripPrefix("/map/static/", http.FileServerFS(webFS)))
	mux.HandleFunc("GET /map/events", s.mapEvents)
	mux.HandleFunc("GET /map/scopes", s.mapScopes)

	mux.HandleFunc("POST /console", s.consoleHTTP)
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/map", http.StatusFound)
	})
	return mux
}

// healthz answers 200 "ok" while the tick runs, and 503 when no tick has
// ended yet or the last one ended longer than HealthMaxAge ago.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	last := s.lastTick.Load()
	if last == 0 {
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte("no tick yet\n"))
		return
	}
	age := s.cfg.Now().Sub(time.Unix(0, last))
	if age > s.cfg.HealthMaxAge {
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte("last tick " + age.Round(time.Millisecond).String() + " ago\n"))
		return
	}
	w.Write([]byte("ok\n"))
}
