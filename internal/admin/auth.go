package admin

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"net/netip"
	"strings"
)

// Loopback reports whether host names only the local machine: "localhost"
// or a loopback IP address. An empty host (every interface) is not loopback.
func Loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// auth wraps h so that every request must carry the token, as a bearer token
// or as the password of HTTP Basic (the user name is ignored). The compare
// runs in constant time over SHA-256 digests, so neither the content nor the
// length of the token leaks through timing.
func (s *Server) auth(h http.Handler) http.Handler {
	want := sha256.Sum256([]byte(s.cfg.Token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := presented(r)
		if ok {
			sum := sha256.Sum256([]byte(got))
			ok = subtle.ConstantTimeCompare(sum[:], want[:]) == 1
		}
		if !ok {
			w.Header().Add("WWW-Authenticate", `Bearer realm="dlmp"`)
			w.Header().Add("WWW-Authenticate", `Basic realm="dlmp"`)
			http.Error(w, "unauthorized: admin endpoints need the admin.token", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// presented returns the token a request carries, if any.
func presented(r *http.Request) (string, bool) {
	if _, pass, ok := r.BasicAuth(); ok {
		return pass, true
	}
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || tok == "" {
		return "", false
	}
	return tok, true
}
