package admin

import (
	"errors"
	"io"
	"net/url"
	"strings"
	"testing"
)

// FuzzExec: any command line runs at most one Console call, and a usage
// error runs none.
func FuzzExec(f *testing.F) {
	for _, s := range []string{"status", "kick 1", "kick 99999999999", "kick", "network_dump x", "help", " \t", "reload\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c := &fakeConsole{}
		err := Exec(c, line, io.Discard)
		if len(c.calls) > 1 {
			t.Fatalf("Exec(%q) made %d calls: %q", line, len(c.calls), c.calls)
		}
		if errors.Is(err, ErrUsage) && len(c.calls) != 0 {
			t.Fatalf("Exec(%q): usage error %v after calling %q", line, err, c.calls)
		}
	})
}

// FuzzParseScope: any query either parses to a scope or is refused with an
// error naming world or interior.
func FuzzParseScope(f *testing.F) {
	for _, s := range []string{"world=1&interior=2", "world=-2147483648", "interior=256", "world=%zz", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		if _, err := parseScope(q); err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, "world:") && !strings.HasPrefix(msg, "interior:") {
				t.Fatalf("parseScope(%q): error %q names neither world nor interior", raw, msg)
			}
		}
	})
}
