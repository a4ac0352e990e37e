package admin

import (
	"cmp"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"
)

//go:embed web
var webRoot embed.FS

// webFS holds the page's files: map.html, map.js, map.css.
var webFS, _ = fs.Sub(webRoot, "web")

// mapEvent is the data of one server-sent event on /map/events.
type mapEvent struct {
	At     int64    `json:"at"` // unix milliseconds of the snapshot
	Scopes []Scope  `json:"scopes"`
	State  MapState `json:"state"`
	// Totals has the full count of every kind the snapshot was cut to
	// MapMaxItems for; absent when nothing was cut.
	Totals map[string]int `json:"totals,omitempty"`
}

// mapPage serves the page.
func (s *Server) mapPage(w http.ResponseWriter, r *http.Request) {
	page, err := fs.ReadFile(webFS, "map.html")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(page)
}

// mapScopes serves the scopes as a JSON array.
func (s *Server) mapScopes(w http.ResponseWriter, r *http.Request) {
	if s.maps == nil {
		http.Error(w, "map: no world wired", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(s.scopes())
}

// scopes returns the source's scopes, sorted, with Scope{} always first.
func (s *Server) scopes() []Scope {
	out := append([]Scope{{}}, s.maps.Scopes()...)
	slices.SortFunc(out, compareScope)
	return slices.Compact(out)
}

// compareScope orders scopes by world, then interior.
func compareScope(a, b Scope) int {
	if c := cmp.Compare(a.World, b.World); c != 0 {
		return c
	}
	return cmp.Compare(a.Interior, b.Interior)
}

// MapWatchers is the number of /map/events streams open now. The world can
// skip building map snapshots while it is zero.
func (s *Server) MapWatchers() int { return int(s.watchers.Load()) }

// mapEvents streams one snapshot of the requested scope (query parameters
// world and interior, both 0 when absent) every MapInterval until the client
// goes away or the server closes.
func (s *Server) mapEvents(w http.ResponseWriter, r *http.Request) {
	if s.maps == nil {
		http.Error(w, "map: no world wired", http.StatusServiceUnavailable)
		return
	}
	scope, err := parseScope(r.URL.Query())
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	s.watchers.Add(1)
	defer s.watchers.Add(-1)
	if _, err := fmt.Fprint(w, "retry: 2000\n\n"); err != nil {
		return
	}
	t := time.NewTicker(s.cfg.MapInterval)
	defer t.Stop()
	for {
		st, totals := s.maps.MapState(scope).filled().capped(s.cfg.MapMaxItems)
		ev := mapEvent{At: time.Now().UnixMilli(), Scopes: s.scopes(), State: st, Totals: totals}
		data, err := json.Marshal(ev)
		if err != nil {
			s.cfg.Logger.Error("map snapshot", "err", err)
			return
		}
		if _, err := fmt.Fprintf(w, "data: %s\n\n", data); err != nil {
			return
		}
		if err := rc.Flush(); err != nil {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-t.C:
		}
	}
}

// parseScope reads the scope from the query: world (an int32) and interior
// (0..255), each 0 when absent.
func parseScope(q url.Values) (Scope, error) {
	var sc Scope
	if v := q.Get("world"); v != "" {
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil {
			return Scope{}, fmt.Errorf("world: must be an integer from %d to %d, got %q", int32(-1<<31), int32(1<<31-1), v)
		}
		sc.World = int32(n)
	}
	if v := q.Get("interior"); v != "" {
		n, err := strconv.ParseUint(v, 10, 8)
		if err != nil {
			return Scope{}, fmt.Errorf("interior: must be an integer from 0 to 255, got %q", v)
		}
		sc.Interior = uint8(n)
	}
	return sc, nil
}
