package netvar

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// logBuf is a logger whose output a test can assert.
type logBuf struct{ bytes.Buffer }

func newTestRegistry(t *testing.T) (*Registry, *logBuf) {
	t.Helper()
	var lb logBuf
	r := NewRegistry()
	r.SetLogger(slog.New(slog.NewTextHandler(&lb, &slog.HandlerOptions{Level: slog.LevelDebug})))
	return r, &lb
}

// wantLog fails unless a logged line holds every one of parts.
func (lb *logBuf) wantLog(t *testing.T, parts ...string) {
	t.Helper()
	for _, line := range strings.Split(lb.String(), "\n") {
		ok := true
		for _, p := range parts {
			if !strings.Contains(line, p) {
				ok = false
				break
			}
		}
		if ok {
			return
		}
	}
	t.Errorf("no log line holds %q; log:\n%s", parts, lb.String())
}

// count returns how many logged lines hold s.
func (lb *logBuf) count(s string) int { return strings.Count(lb.String(), s) }

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }
