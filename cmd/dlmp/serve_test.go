package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPrintConfigRoundTrip(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"serve", "--print-config", "--tick-hz", "33", "--sync-hz", "25", "--listen", "127.0.0.1:9999"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "tick_hz = 33") || !strings.Contains(out.String(), "sync_hz = 25") || !strings.Contains(out.String(), "# world ticks per second") {
		t.Fatalf("printed config:\n%s", out.String())
	}
	path := filepath.Join(t.TempDir(), "dlmp.toml")
	os.WriteFile(path, out.Bytes(), 0o644)
	var again bytes.Buffer
	if code := run([]string{"serve", "--config", path, "--print-config"}, nil, &again, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if again.String() != out.String() {
		t.Fatalf("config printed from the printed file differs:\n%s\n---\n%s", again.String(), out.String())
	}
}

func TestServeBadConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(path, []byte("[server]\ntick_hz = 500\n"), 0o644)
	var out, errb bytes.Buffer
	code := run([]string{"serve", "--config", path}, nil, &out, &errb)
	if code != 1 || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q", code, out.String())
	}
	if want := "bad.toml:2: server.tick_hz: must be 1..100, got 500"; !strings.Contains(errb.String(), want) {
		t.Fatalf("stderr %q, want it to contain %q", errb.String(), want)
	}
	errb.Reset()
	if code := run([]string{"serve", "--log-level", "loud", "--print-config"}, nil, &out, &errb); code != 1 || !strings.Contains(errb.String(), "log.level") {
		t.Fatalf("a bad flag value: exit %d, %q", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"serve", "--tick-hz", "10", "--sync-hz", "20", "--print-config"}, nil, &out, &errb); code != 1 || !strings.Contains(errb.String(), "server.sync_hz: must be at most server.tick_hz (10), got 20") {
		t.Fatalf("sync-hz above tick-hz: exit %d, %q", code, errb.String())
	}
}
