package admin

import (
	"strings"
	"testing"
)

func TestLoopback(t *testing.T) {
	tests := []struct {
		host string
		want bool
	}{
		{"127.0.0.1", true}, {"127.3.2.1", true}, {"::1", true}, {"localhost", true},
		{"", false}, {"0.0.0.0", false}, {"::", false}, {"192.168.1.10", false}, {"example.com", false},
	}
	for _, tt := range tests {
		if got := Loopback(tt.host); got != tt.want {
			t.Errorf("Loopback(%q) = %v, want %v", tt.host, got, tt.want)
		}
	}
}

func TestNewRefusesOpenListenWithoutToken(t *testing.T) {
	for _, listen := range []string{"0.0.0.0:7780", ":7780", "10.0.0.1:7780"} {
		_, err := New(Config{Listen: listen}, nil, nil, nil)
		if err == nil || !strings.Contains(err.Error(), "token") {
			t.Errorf("New(listen %q, no token): err %v, want one naming the token", listen, err)
		}
	}
	for _, listen := range []string{"nonsense", ""} {
		if _, err := New(Config{Listen: listen, Token: "t"}, nil, nil, nil); err == nil || !strings.Contains(err.Error(), "listen") {
			t.Errorf("New(listen %q): err %v, want one naming listen", listen, err)
		}
	}
	if _, err := New(Config{Listen: "127.0.0.1:7780"}, nil, nil, nil); err != nil {
		t.Errorf("New(loopback, no token): %v", err)
	}
}

func TestAuthOffLoopback(t *testing.T) {
	const token = "s3cret-token"
	_, ts := newTestServer(t, Config{Listen: "0.0.0.0:7780", Token: token})
	endpoints := []struct{ method, path, body string }{
		{"GET", "/metrics", ""},
		{"GET", "/healthz", ""},
		{"GET", "/debug/pprof/", ""},
		{"GET", "/map", ""},
		{"GET", "/map/scopes", ""},
		{"GET", "/map/static/map.js", ""},
		{"GET", "/map/events?world=bad", ""}, // refused before the scope is read
		{"POST", "/console", "status"},
	}
	creds := []struct {
		name   string
		header []string
		ok     bool
	}{
		{"none", nil, false},
		{"wrong bearer", []string{"Authorization", "Bearer s3cret-tokeN"}, false},
		{"prefix of the token", []string{"Authorization", "Bearer s3cret"}, false},
		{"empty bearer", []string{"Authorization", "Bearer "}, false},
		{"token without scheme", []string{"Authorization", token}, false},
		{"wrong basic", []string{"Authorization", "Basic YWRtaW46bm9wZQ=="}, false}, // admin:nope
		{"bearer", []string{"Authorization", "Bearer " + token}, true},
		{"bearer, scheme in lower case", []string{"Authorization", "bearer " + token}, true},
		{"basic", []string{"Authorization", "Basic YWRtaW46czNjcmV0LXRva2Vu"}, true}, // admin:s3cret-token
	}
	for _, ep := range endpoints {
		for _, c := range creds {
			code, body := do(t, ep.method, ts.URL+ep.path, ep.body, c.header...)
			if !c.ok {
				if code != 401 {
					t.Errorf("%s %s with %s: status %d, want 401", ep.method, ep.path, c.name, code)
				}
				if strings.Contains(body, "players") || strings.Contains(body, "dlmp_") {
					t.Errorf("%s %s with %s: the refusal leaks content: %q", ep.method, ep.path, c.name, body)
				}
				continue
			}
			if code == 401 {
				t.Errorf("%s %s with %s: status 401, want the endpoint's answer", ep.method, ep.path, c.name)
			}
		}
	}
}

func TestAuthOnLoopbackNeedsNothing(t *testing.T) {
	_, ts := newTestServer(t, Config{Listen: "127.0.0.1:7780", Token: "ignored-here"})
	for _, path := range []string{"/metrics", "/debug/pprof/", "/map", "/map/scopes"} {
		if code, _ := do(t, "GET", ts.URL+path, ""); code != 200 {
			t.Errorf("GET %s on loopback without a token: status %d, want 200", path, code)
		}
	}
}
