package transport

import (
	"bytes"
	"log/slog"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// The flush trace (FlushTraceEnv) writes a header and a line a Flush, of
// as many fields as the header names: a Flush that sent a session's event
// counts its lane datagram and the batch it made (new_batch, since the
// last Flush), the next one, with nothing to send, neither.
func TestFlushTraceLines(t *testing.T) {
	name := filepath.Join(t.TempDir(), "flush.tsv")
	t.Setenv(FlushTraceEnv, name)
	s := quietServer(t)
	now := time.Unix(1000, 0)
	sess := s.Attach(netip.MustParseAddrPort("127.0.0.1:9"), now)
	m := make([]byte, 40)
	m[0] = wire.IDPlayerShow
	if err := sess.Send(m, lane.Critical); err != nil {
		t.Fatal(err)
	}
	s.Flush(now)
	for deadline := time.Now().Add(5 * time.Second); s.Pending() > 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	s.Flush(now.Add(time.Millisecond))
	s.Close()

	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %d lines, want a header and 2 flushes:\n%s", len(lines), b)
	}
	head := strings.Fields(lines[0])
	field := func(line int, name string) string {
		t.Helper()
		f := strings.Fields(lines[line])
		if len(f) != len(head) {
			t.Fatalf("line %d has %d fields, the header %d", line, len(f), len(head))
		}
		for i, h := range head {
			if h == name {
				return f[i]
			}
		}
		t.Fatalf("no field %s in %v", name, head)
		return ""
	}
	for _, c := range []struct {
		line       int
		name, want string
	}{
		{1, "sessions", "1"}, {1, "lane_dgrams", "1"}, {1, "new_batch", "1"},
		{2, "sessions", "1"}, {2, "lane_dgrams", "0"}, {2, "new_batch", "0"},
	} {
		if got := field(c.line, c.name); got != c.want {
			t.Errorf("flush %d: %s = %s, want %s", c.line, c.name, got, c.want)
		}
	}
}

// A trace file that cannot be created is said in the log, and the server
// runs without it.
func TestFlushTraceCannotCreate(t *testing.T) {
	t.Setenv(FlushTraceEnv, filepath.Join(t.TempDir(), "no", "such", "dir", "flush.tsv"))
	var log bytes.Buffer
	s, err := Listen(Config{Listen: "127.0.0.1:0", Log: slog.New(slog.NewTextHandler(&log, nil))}, nopWorld{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.tick.trace != nil {
		t.Error("a trace with no file")
	}
	if !strings.Contains(log.String(), "no flush trace") || !strings.Contains(log.String(), FlushTraceEnv) {
		t.Errorf("log %q does not say the trace is off and why", log.String())
	}
	s.Flush(time.Unix(1000, 0))
}
