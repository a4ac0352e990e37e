package admin

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestExec(t *testing.T) {
	tests := []struct {
		line    string
		call    string // the Console call made; "" = none
		out     string // contained in the output
		usage   bool   // an ErrUsage
		errText string // contained in the error
	}{
		{line: "status", call: "status", out: "players: 3"},
		{line: "  status  ", call: "status", out: "players: 3"},
		{line: "kick 2", call: "kick 2", out: "kicked 2"},
		{line: "kick 0", call: "kick 0", out: "kicked 0"},
		{line: "kick 4294967295", call: "kick 4294967295", errText: "no player 4294967295"},
		{line: "kick 4294967296", usage: true, errText: "kick: ID must be a player id"},
		{line: "kick -1", usage: true, errText: "kick: ID"},
		{line: "kick bob", usage: true, errText: `got "bob"`},
		{line: "kick", usage: true, errText: "kick takes one argument"},
		{line: "kick 1 2", usage: true, errText: "kick takes one argument"},
		{line: "network_dump", call: "network_dump", out: "registry"},
		{line: "network_selftest", call: "network_selftest", out: "selftest: pass"},
		{line: "reload", call: "reload", out: "reloaded"},
		{line: "status now", usage: true, errText: "status takes no arguments"},
		{line: "reload all", usage: true, errText: "reload takes no arguments"},
		{line: "shutdown", usage: true, errText: `unknown command "shutdown"`},
		{line: "STATUS", usage: true, errText: "unknown command"},
		{line: "help", out: "network_selftest"},
		{line: "", out: ""},
	}
	for _, tt := range tests {
		c := &fakeConsole{}
		var out strings.Builder
		err := Exec(c, tt.line, &out)
		if got := errors.Is(err, ErrUsage); got != tt.usage {
			t.Errorf("Exec(%q): err %v, usage error %v, want %v", tt.line, err, got, tt.usage)
		}
		if tt.errText == "" && err != nil {
			t.Errorf("Exec(%q): unexpected error %v", tt.line, err)
		}
		if tt.errText != "" && (err == nil || !strings.Contains(err.Error(), tt.errText)) {
			t.Errorf("Exec(%q): err %v, want one containing %q", tt.line, err, tt.errText)
		}
		if !strings.Contains(out.String(), tt.out) {
			t.Errorf("Exec(%q): output %q, want it to contain %q", tt.line, out.String(), tt.out)
		}
		var want []string
		if tt.call != "" {
			want = []string{tt.call}
		}
		if !slices.Equal(c.calls, want) {
			t.Errorf("Exec(%q): calls %q, want %q", tt.line, c.calls, want)
		}
	}
}

func TestReadConsole(t *testing.T) {
	in := "status\n\n# a comment\nkick 1\nbogus\nkick 9\r\nreload\n"
	c := &fakeConsole{reload: errReload}
	var out strings.Builder
	if err := ReadConsole(strings.NewReader(in), c, &out); err != nil {
		t.Fatalf("ReadConsole: %v", err)
	}
	if want := []string{"status", "kick 1", "kick 9", "reload"}; !slices.Equal(c.calls, want) {
		t.Errorf("calls %q, want %q", c.calls, want)
	}
	for _, want := range []string{
		"players: 3\n",
		"kicked 1\n",
		`error: usage: unknown command "bogus" (try help)` + "\n",
		"error: kick: no player 9\n",
		"error: main.lua:3: syntax error\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output %q lacks %q", out.String(), want)
		}
	}
}

func TestReadConsoleLineTooLong(t *testing.T) {
	in := "status\n" + strings.Repeat("x", MaxCommandLine+1) + "\nstatus\n"
	c := &fakeConsole{}
	var out strings.Builder
	err := ReadConsole(strings.NewReader(in), c, &out)
	if err == nil || !strings.Contains(err.Error(), "too long") {
		t.Errorf("ReadConsole with a %d-byte line: err %v, want token too long", MaxCommandLine+1, err)
	}
	if want := []string{"status"}; !slices.Equal(c.calls, want) {
		t.Errorf("calls %q, want %q (the reading stops at the long line)", c.calls, want)
	}
}

func TestConsoleHTTP(t *testing.T) {
	con := &fakeConsole{reload: errReload}
	s, err := New(Config{Listen: "127.0.0.1:0"}, nil, nil, con)
	if err != nil {
		t.Fatal(err)
	}
	url := newHTTPTest(t, s) + "/console"
	tests := []struct {
		body string
		code int
		out  string
	}{
		{"status", 200, "players: 3"},
		{"kick 1\n", 200, "kicked 1"},
		{"kick 7", 500, "error: kick: no player 7"},
		{"kick x", 400, "error: usage: kick: ID must be a player id"},
		{"launch", 400, `unknown command "launch"`},
		{"network_dump", 200, "registry: 0 vars"},
		{"network_selftest", 200, "selftest: pass"},
		{"reload", 500, "main.lua:3: syntax error"},
		{"status\nkick 1", 400, "one command line per request"},
		{strings.Repeat("y", MaxCommandLine+1), 413, "longer than 4096 bytes"},
	}
	for _, tt := range tests {
		code, body := do(t, "POST", url, tt.body)
		if code != tt.code || !strings.Contains(body, tt.out) {
			t.Errorf("POST /console %.20q: got %d %q, want %d containing %q", tt.body, code, body, tt.code, tt.out)
		}
	}
	if code, _ := do(t, "GET", url, ""); code != 405 {
		t.Errorf("GET /console: status %d, want 405", code)
	}
	want := []string{"status", "kick 1", "kick 7", "network_dump", "network_selftest", "reload"}
	if !slices.Equal(con.calls, want) {
		t.Errorf("console calls %q, want %q", con.calls, want)
	}
}

func TestNothingWired(t *testing.T) {
	s, err := New(Config{Listen: "127.0.0.1:0"}, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	url := newHTTPTest(t, s)
	for _, ep := range []struct{ method, path string }{
		{"POST", "/console"}, {"GET", "/map/events"}, {"GET", "/map/scopes"},
	} {
		if code, _ := do(t, ep.method, url+ep.path, "status"); code != 503 {
			t.Errorf("%s %s with nothing wired: status %d, want 503", ep.method, ep.path, code)
		}
	}
}
