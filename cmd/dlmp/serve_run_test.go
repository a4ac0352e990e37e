package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// buildDLMP builds the binary once per test.
func buildDLMP(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "dlmp")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// serveProc is a running `dlmp serve`.
type serveProc struct {
	cmd       *exec.Cmd
	game, adm string
	logs      *lockedBuffer
	exited    chan error
}

// lockedBuffer is the server's log, written by the reading goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) WriteString(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.WriteString(s)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startServe runs dlmp serve on loopback ports and waits for its addresses.
func startServe(t *testing.T, bin string, args ...string) *serveProc {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--listen", "127.0.0.1:0", "--admin", "127.0.0.1:0", "--log-format", "json"}, args...)...)
	stderr, _ := cmd.StderrPipe()
	cmd.Stdin = strings.NewReader("") // the console reads stdin; EOF at once
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &serveProc{cmd: cmd, logs: &lockedBuffer{}, exited: make(chan error, 1)}
	addrs := make(chan [2]string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		var game, adm string
		for sc.Scan() {
			line := sc.Text()
			p.logs.WriteString(line + "\n")
			var m map[string]any
			if json.Unmarshal([]byte(line), &m) != nil {
				continue
			}
			switch m["msg"] {
			case "dlmp serving":
				game, _ = m["listen"].(string)
			case "admin listening":
				adm, _ = m["addr"].(string)
			}
			if game != "" && adm != "" {
				addrs <- [2]string{game, adm}
				game = ""
			}
		}
	}()
	go func() { p.exited <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })
	select {
	case a := <-addrs:
		p.game, p.adm = a[0], a[1]
	case err := <-p.exited:
		t.Fatalf("dlmp serve exited: %v\n%s", err, p.logs)
	case <-time.After(15 * time.Second):
		t.Fatalf("dlmp serve did not report its addresses:\n%s", p.logs)
	}
	return p
}

// stop sends SIGINT and waits for a clean exit.
func (p *serveProc) stop(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGINT)
	select {
	case err := <-p.exited:
		if err != nil {
			t.Fatalf("dlmp serve after SIGINT: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("dlmp serve still running 10 s after SIGINT")
	}
}

// TestServeDefaultWorld runs the README's server command: the embedded
// default world, bots playing in it, the admin listener, a clean stop.
func TestServeDefaultWorld(t *testing.T) {
	bin := buildDLMP(t)
	p := startServe(t, bin)
	out, err := exec.Command(bin, "bot", "-n", "5", "--server", p.game, "--duration", "4s", "--json").Output()
	if err != nil {
		t.Fatalf("dlmp bot: %v\n%s", err, out)
	}
	var sum struct {
		Connected int            `json:"connected"`
		Failed    int            `json:"failed"`
		Lost      int            `json:"events_lost"`
		Events    int            `json:"reliable_events"`
		Touches   int            `json:"touches"`
		Disc      map[string]int `json:"disconnects"`
	}
	if err := json.Unmarshal(out, &sum); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if sum.Connected != 5 || sum.Failed != 0 || sum.Lost != 0 || len(sum.Disc) != 0 {
		t.Fatalf("bots: %s", out)
	}
	if sum.Events < 5*10 { // spawns, clock, weather, the world's pickups
		t.Fatalf("%d reliable events for 5 bots in the default world: %s", sum.Events, out)
	}
	resp, err := http.Get("http://" + p.adm + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	resp.Body.Close()
	p.stop(t)
	if !strings.Contains(p.logs.String(), "dlmp stopped") {
		t.Fatalf("logs:\n%s", p.logs)
	}
}

// TestServeGamemodeFolder: a folder on the command line replaces the
// default world, and a script error in it is logged with the gamemode's
// name and line while the server goes on.
func TestServeGamemodeFolder(t *testing.T) {
	bin := buildDLMP(t)
	dir := filepath.Join(t.TempDir(), "mymode")
	os.Mkdir(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "main.lua"), []byte(`
dlmp.on("player_connect", function(player)
  print("hello from mymode")
  local broken = nil
  broken.field = 1 -- line 5
end)
`), 0o644)
	p := startServe(t, bin, "--gamemode", dir)
	out, err := exec.Command(bin, "bot", "-n", "2", "--server", p.game, "--duration", "2s", "--json").Output()
	if err != nil {
		t.Fatalf("dlmp bot: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), `"connected":2`) {
		t.Fatalf("bots: %s", out)
	}
	p.stop(t)
	logs := p.logs.String()
	for _, want := range []string{"hello from mymode", `"gamemode":"mymode"`, "main.lua:5"} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %q:\n%s", want, logs)
		}
	}
}

// TestServeRealTimeThreads: --tick-fifo and --writer-fifo reach the tick's
// and the writer's threads, each logged as real-time or, without
// CAP_SYS_NICE, as staying in the ordinary class.
func TestServeRealTimeThreads(t *testing.T) {
	bin := buildDLMP(t)
	p := startServe(t, bin, "--tick-fifo", "10", "--writer-fifo", "5")
	out, err := exec.Command(bin, "bot", "-n", "1", "--server", p.game, "--duration", "1s", "--json").Output()
	if err != nil || !strings.Contains(string(out), `"connected":1`) {
		t.Fatalf("dlmp bot: %v\n%s", err, out)
	}
	p.stop(t)
	logs := p.logs.String()
	for _, th := range []struct{ on, off, prio string }{
		{"tick thread real-time", "the tick thread stays in the ordinary class", `"tick_fifo":10`},
		{"writer thread real-time", "the writer thread stays in the ordinary class", `"writer_fifo":5`},
	} {
		if !strings.Contains(logs, th.on) && !strings.Contains(logs, th.off) || !strings.Contains(logs, th.prio) {
			t.Errorf("logs say neither %q nor %q with %s:\n%s", th.on, th.off, th.prio, logs)
		}
	}
}
